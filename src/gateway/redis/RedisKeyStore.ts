import type { Redis } from "ioredis";
import { KeysFileError, parseKeysFile, type StoredKey } from "../../server/http/keyRing.js";
import { redisKeyLayout, type RedisKeyLayout } from "./redisKeyLayout.js";
import { RedisScript } from "./RedisScript.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

/**
 * Replaces one entry of the keys hash only if it still holds what the caller read (compare and
 * set, so two concurrent `shardkit keys` runs cannot lose a change), bumps the version and
 * publishes it, all in one atomic step: a change is never visible without its notification.
 * ARGV: name, expected JSON ('' = absent), new JSON ('' = delete), channel.
 * Returns the new version, or -1 when the entry changed in between.
 */
const CHANGE_KEY = new RedisScript(`
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current == false then current = '' end
if current ~= ARGV[2] then return -1 end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
local version = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[4], version)
return version
`);

/** A snapshot of the keys in Redis. */
export interface RedisKeysSnapshot {
  /** The value of `<prefix>keys:version` read in the same transaction (0 = never changed). */
  readonly version: number;
  readonly keys: readonly StoredKey[];
}

/** What `importKeys` did, by key name. */
export interface RedisKeysImport {
  readonly added: readonly string[];
  readonly updated: readonly string[];
  readonly unchanged: readonly string[];
  readonly removed: readonly string[];
}

/** An entry as stored: fixed field order, so equal entries are equal strings. */
function entryJson(k: StoredKey): string {
  return JSON.stringify({ name: k.name, sha256: k.sha256, kind: k.kind, origins: k.origins, ratePerMinute: k.ratePerMinute });
}

/** One stored entry, checked as a keys file's entries are. */
function storedEntry(json: string): StoredKey {
  const [entry] = parseKeysFile(JSON.stringify({ version: 1, keys: [JSON.parse(json)] })).keys;
  if (entry === undefined) throw new KeysFileError("an empty Redis key entry");
  return entry;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string");
}

/**
 * The API keys in Redis: the same StoredKey entries as the keys file (name, sha256, kind,
 * origins, rate cap), one hash field per name. Keys themselves are never sent to Redis.
 */
export class RedisKeyStore {
  readonly layout: RedisKeyLayout;

  constructor(
    private readonly client: Redis,
    prefix?: string,
  ) {
    this.layout = redisKeyLayout(prefix);
  }

  /** All keys and the version they belong to, read atomically; entries are checked as the keys file's are. */
  async snapshot(): Promise<RedisKeysSnapshot> {
    const replies = await this.client.multi().hgetall(this.layout.keys).get(this.layout.version).exec();
    if (replies === null) throw new Error("Redis aborted the keys read");
    const [hash, version] = replies.map(([error, value]) => {
      if (error !== null) throw error;
      return value;
    });
    if (!isStringRecord(hash) || (version !== null && typeof version !== "string")) throw new Error("Redis answered the keys read with unexpected types");
    const entries = Object.entries(hash)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, json]): unknown => {
        try {
          return JSON.parse(json);
        } catch {
          throw new KeysFileError(`Redis ${this.layout.keys} field ${JSON.stringify(name)} is not valid JSON`);
        }
      });
    let keys: StoredKey[];
    try {
      keys = parseKeysFile(JSON.stringify({ version: 1, keys: entries })).keys;
    } catch (error) {
      throw new KeysFileError(`Redis ${this.layout.keys}: ${errorMessage(error)}`);
    }
    return { version: version === null ? 0 : Number(version), keys };
  }

  /** The current version only (one GET; instances poll it as a safety net for lost messages). */
  async version(): Promise<number> {
    const version = await this.client.get(this.layout.version);
    return version === null ? 0 : Number(version);
  }

  async get(name: string): Promise<StoredKey | undefined> {
    const json = await this.client.hget(this.layout.keys, name);
    return json === null ? undefined : storedEntry(json);
  }

  /** Adds a new entry; throws when the name is taken. */
  async add(entry: StoredKey): Promise<number> {
    const version = await this.change(entry.name, "", entryJson(entry));
    if (version < 0) throw new Error(`a key named ${JSON.stringify(entry.name)} already exists in Redis`);
    return version;
  }

  /** Removes the entry named `name`; throws when there is none. */
  async revoke(name: string): Promise<number> {
    const current = await this.client.hget(this.layout.keys, name);
    if (current === null) throw new Error(`no key named ${JSON.stringify(name)} in Redis`);
    const version = await this.change(name, current, "");
    if (version < 0) throw new Error(`the key named ${JSON.stringify(name)} changed meanwhile; run the command again`);
    return version;
  }

  /** Gives the entry named `name` a new key hash (same kind, origins and cap). */
  async rotate(name: string, sha256: string): Promise<number> {
    const current = await this.client.hget(this.layout.keys, name);
    if (current === null) throw new Error(`no key named ${JSON.stringify(name)} in Redis`);
    const entry = storedEntry(current);
    const version = await this.change(name, current, entryJson({ ...entry, sha256 }));
    if (version < 0) throw new Error(`the key named ${JSON.stringify(name)} changed meanwhile; run the command again`);
    return version;
  }

  /**
   * Makes Redis hold `entries` (a keys file's, already hashed): new names are added, changed
   * entries replaced, equal ones left alone (no version bump, no message); with `prune`, names
   * absent from `entries` are removed. Each change is the same compare-and-set + publish as
   * add/rotate/revoke, so a concurrent `shardkit keys` change is never overwritten unseen.
   */
  async importKeys(entries: readonly StoredKey[], prune: boolean): Promise<RedisKeysImport> {
    const stored = await this.client.hgetall(this.layout.keys);
    const result: { [K in keyof RedisKeysImport]: string[] } = { added: [], updated: [], unchanged: [], removed: [] };
    const changed = (name: string) => new Error(`the key named ${JSON.stringify(name)} changed in Redis during the import; run it again`);
    for (const entry of entries) {
      const json = entryJson(entry);
      const before = stored[entry.name];
      if (before !== undefined && entryJson(storedEntry(before)) === json) {
        result.unchanged.push(entry.name);
        continue;
      }
      if ((await this.change(entry.name, before ?? "", json)) < 0) throw changed(entry.name);
      (before === undefined ? result.added : result.updated).push(entry.name);
    }
    if (prune) {
      const kept = new Set(entries.map((e) => e.name));
      for (const [name, before] of Object.entries(stored).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (kept.has(name)) continue;
        if ((await this.change(name, before, "")) < 0) throw changed(name);
        result.removed.push(name);
      }
    }
    return result;
  }

  private async change(name: string, expected: string, next: string): Promise<number> {
    return Number(await CHANGE_KEY.run(this.client, [this.layout.keys, this.layout.version], [name, expected, next, this.layout.channel]));
  }
}
