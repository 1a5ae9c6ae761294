import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError, parseFlags } from "./flags.js";
import type { RedisKeyStore } from "../gateway/redis/RedisKeyStore.js";
import { hashApiKey, normalizeOriginRule, parseKeysFile, type KeysFile, type StoredKey } from "../server/http/keyRing.js";

export const keysUsage = `Usage: shardkit keys <add|list|revoke|rotate> (--file F | --redis URL) [options]
       shardkit keys import --keys F --redis URL [--prune]

Manages the API keys file of \`shardkit serve --keys F\`, or with --redis the keys every
\`shardkit gateway --redis URL\` instance shares (only sha256 hashes are stored, in both).

  add --name N [--browser --origin URL ...] [--rate PER_MINUTE]
                 create a key; prints it once, on the last line (only its sha256 is stored)
  list           names, kinds, origins and rate caps (never the keys)
  revoke --name N
                 remove the key; a running \`serve --keys F\` stops accepting it at once
  rotate --name N
                 replace the key (same name, origins and cap); prints the new one; the old one stops working
  import --keys F --redis URL [--prune]
                 copy a keys file's entries into Redis (hashes only; entries with a raw "key" are
                 hashed first): new names added, changed ones replaced; --prune also removes the
                 Redis keys the file does not have

  --file F       the keys file
  --redis URL    the gateway's Redis (redis://host:port[/db] or a unix socket path); changes
                 reach every running gateway instance within a second
  -h, --help     show this help

Origins: an exact origin (https://app.example.com) or a wildcard (*.example.com, any scheme).
`;

export interface KeysOutput {
  log(line: string): void;
}

/** A new API key: 32 random bytes, base64url, with a recognisable prefix. */
export function newApiKey(): string {
  return `shk_${randomBytes(32).toString("base64url")}`;
}

function readKeys(file: string): KeysFile {
  if (!existsSync(file)) return { version: 1, keys: [] };
  return parseKeysFile(readFileSync(file, "utf8"));
}

/** Writes via a temporary file and a rename, so a watching server never reads half a file. */
function writeKeys(file: string, keys: KeysFile): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temp, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

function positiveInteger(text: string | undefined, flag: string): number | null {
  if (text === undefined) return null;
  if (!/^[1-9][0-9]{0,9}$/.test(text)) throw new Error(`--${flag} must be a positive integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** `shardkit keys ...`; throws with a clear message on bad input. Redis mode returns a promise. */
export function keysCommand(args: string[], out: KeysOutput = { log: (line) => console.log(line) }): void | Promise<void> {
  const { values, positionals } = parseFlags("keys", args, {
    file: { type: "string" },
    keys: { type: "string" },
    prune: { type: "boolean" },
    redis: { type: "string" },
    name: { type: "string" },
    browser: { type: "boolean" },
    origin: { type: "string", multiple: true },
    rate: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  const [action, ...extra] = positionals;
  if (action === undefined || action === "help" || values.help === true) {
    out.log(keysUsage);
    return;
  }
  if (!["add", "list", "revoke", "rotate", "import"].includes(action)) throw new UsageError(`unknown keys action ${JSON.stringify(action)}\n\n${keysUsage}`);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])} for keys ${action}`, "keys");
  if (action === "import") return importKeys(values, out);
  if (values.keys !== undefined || values.prune === true) throw new UsageError(`--keys and --prune belong to keys import (keys ${action} takes --file F)`, "keys");
  const file = values.file;
  if (file !== undefined && values.redis !== undefined) throw new UsageError("give --file F or --redis URL, not both", "keys");
  const needName = (): string => {
    if (values.name === undefined || values.name.length === 0) throw new UsageError(`keys ${action} needs --name N`, "keys");
    return values.name;
  };
  const newEntry = (name: string, key: string): StoredKey => {
    const origins = (values.origin ?? []).map(normalizeOriginRule);
    if (values.browser === true && origins.length === 0) throw new Error("a --browser key needs at least one --origin");
    if (values.browser !== true && origins.length > 0) throw new Error("--origin applies to --browser keys only");
    return {
      name,
      sha256: hashApiKey(key),
      kind: values.browser === true ? "browser" : "server",
      origins,
      ratePerMinute: positiveInteger(values.rate, "rate"),
    };
  };
  if (values.redis !== undefined) {
    // Check every flag before connecting, so a typo is reported without a Redis round trip.
    const name = action === "list" ? "" : needName();
    const key = action === "add" || action === "rotate" ? newApiKey() : "";
    const entry = action === "add" ? newEntry(name, key) : undefined;
    return redisKeys(values.redis, action, name, key, entry, out);
  }
  if (file === undefined) throw new UsageError(`keys ${action} needs --file F or --redis URL\n\n${keysUsage}`);
  const keys = readKeys(file);
  const indexOf = (name: string): number => {
    const index = keys.keys.findIndex((k) => k.name === name);
    if (index < 0) throw new Error(`no key named ${JSON.stringify(name)} in ${file}`);
    return index;
  };
  switch (action) {
    case "add": {
      const name = needName();
      if (keys.keys.some((k) => k.name === name)) throw new Error(`a key named ${JSON.stringify(name)} already exists in ${file}`);
      const key = newApiKey();
      const entry = newEntry(name, key);
      writeKeys(file, { version: 1, keys: [...keys.keys, entry] });
      out.log(`added ${entry.kind} key ${JSON.stringify(name)} to ${file}; it is shown once, store it now:`);
      out.log(key);
      return;
    }
    case "list": {
      if (keys.keys.length === 0) out.log(`no keys in ${file}`);
      for (const k of keys.keys) out.log(listLine(k));
      return;
    }
    case "revoke": {
      const index = indexOf(needName());
      writeKeys(file, { version: 1, keys: keys.keys.filter((_, i) => i !== index) });
      out.log(`revoked key ${JSON.stringify(values.name)} in ${file}`);
      return;
    }
    case "rotate": {
      const index = indexOf(needName());
      const key = newApiKey();
      writeKeys(file, { version: 1, keys: keys.keys.map((k, i) => (i === index ? { ...k, sha256: hashApiKey(key) } : k)) });
      out.log(`rotated key ${JSON.stringify(values.name)} in ${file}; the old key no longer works. New key, shown once:`);
      out.log(key);
      return;
    }
    default:
      throw new Error(`unknown keys action ${JSON.stringify(action)}\n\n${keysUsage}`);
  }
}

function listLine(k: StoredKey): string {
  const origins = k.kind === "browser" ? `  origins ${k.origins.join(", ")}` : "";
  return `${k.name}  ${k.kind}  rate ${k.ratePerMinute === null ? "unlimited" : `${k.ratePerMinute}/min`}${origins}`;
}

/** `keys import --keys F --redis URL [--prune]`: a keys file into the gateway's Redis. */
async function importKeys(
  values: { keys?: string; redis?: string; file?: string; prune?: boolean; name?: string; browser?: boolean; origin?: string[]; rate?: string },
  out: KeysOutput,
): Promise<void> {
  if (values.file !== undefined) throw new UsageError("keys import reads the file given with --keys F (not --file)", "keys");
  if (values.name !== undefined || values.browser === true || values.origin !== undefined || values.rate !== undefined) {
    throw new UsageError("keys import takes the entries from the file: no --name, --browser, --origin or --rate", "keys");
  }
  if (values.keys === undefined || values.keys.length === 0) throw new UsageError("keys import needs --keys F (the keys file to copy)", "keys");
  if (values.redis === undefined) throw new UsageError("keys import needs --redis URL (where the gateway instances read their keys)", "keys");
  const file = values.keys;
  if (!existsSync(file)) throw new Error(`no keys file ${file}`);
  let entries: readonly StoredKey[];
  try {
    entries = readKeys(file).keys;
  } catch (error) {
    throw new Error(`keys file ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const prune = values.prune === true;
  await withRedisKeyStore(values.redis, async (store, where) => {
    const result = await store.importKeys(entries, prune);
    for (const name of result.added) out.log(`added ${name}`);
    for (const name of result.updated) out.log(`updated ${name}`);
    for (const name of result.removed) out.log(`removed ${name}`);
    const removed = prune ? `, ${result.removed.length} removed` : "";
    out.log(`imported ${file} into ${where}: ${result.added.length} added, ${result.updated.length} updated, ${result.unchanged.length} unchanged${removed}`);
  });
}

/** A one-shot connection to the gateway's Redis for one `keys` command. */
async function withRedisKeyStore(url: string, use: (store: RedisKeyStore, where: string) => Promise<void>): Promise<void> {
  // Loaded here so the keys-file mode does not load a Redis client.
  const { connectRedis, redactRedisUrl } = await import("../gateway/redis/connectRedis.js");
  const { RedisKeyStore } = await import("../gateway/redis/RedisKeyStore.js");
  // No reconnect loop: a clear error (not a hang) when Redis is away.
  const client = await connectRedis(url, { reconnect: false, offlineQueue: true, connectTimeoutMs: 5000, commandTimeoutMs: 5000 });
  try {
    await use(new RedisKeyStore(client), `Redis ${redactRedisUrl(url)}`);
  } finally {
    client.disconnect();
  }
}

/** The same actions against the gateway's Redis; each change is published to every instance. */
async function redisKeys(url: string, action: string, name: string, key: string, entry: StoredKey | undefined, out: KeysOutput): Promise<void> {
  await withRedisKeyStore(url, async (store, where) => {
    switch (action) {
      case "add": {
        if (entry === undefined) throw new Error("keys add without an entry");
        await store.add(entry);
        out.log(`added ${entry.kind} key ${JSON.stringify(name)} to ${where}; it is shown once, store it now:`);
        out.log(key);
        return;
      }
      case "list": {
        const { keys } = await store.snapshot();
        if (keys.length === 0) out.log(`no keys in ${where}`);
        for (const k of keys) out.log(listLine(k));
        return;
      }
      case "revoke": {
        await store.revoke(name);
        out.log(`revoked key ${JSON.stringify(name)} in ${where}`);
        return;
      }
      case "rotate": {
        await store.rotate(name, hashApiKey(key));
        out.log(`rotated key ${JSON.stringify(name)} in ${where}; the old key no longer works. New key, shown once:`);
        out.log(key);
        return;
      }
    }
  });
}
