import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { createHash } from "node:crypto";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/** How a key may be used: from servers (no origin rule) or from browsers on allowed origins. */
export type KeyKind = "server" | "browser";

/** One API key as the keys file stores it: never the key itself, only its sha256. */
export interface StoredKey {
  readonly name: string;
  /** Lowercase hex sha256 of the key's UTF-8 bytes. */
  readonly sha256: string;
  readonly kind: KeyKind;
  /** Browser keys: allowed origins, `https://app.example.com` or `*.example.com` (any scheme). */
  readonly origins: readonly string[];
  /** Requests per minute across every listener; null = no cap. */
  readonly ratePerMinute: number | null;
}

/** The keys file: `{"version": 1, "keys": [StoredKey...]}` (see src/cli/keysCommand.ts). */
export interface KeysFile {
  version: 1;
  keys: StoredKey[];
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export class KeysFileError extends ShardkitError<"INVALID_KEYS_FILE"> {
  override readonly name = "KeysFileError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("INVALID_KEYS_FILE", message, options);
  }
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Validates one origin rule; returns it normalized (exact origins as `URL.origin`). */
export function normalizeOriginRule(rule: string): string {
  const wildcard = /^(?:([a-z][a-z0-9+.-]*):\/\/)?\*\.([a-z0-9-]+(?:\.[a-z0-9-]+)+)$/i.exec(rule);
  const [, scheme, domain] = wildcard ?? [];
  if (domain !== undefined) return `${scheme ? `${scheme.toLowerCase()}://` : ""}*.${domain.toLowerCase()}`;
  let url: URL;
  try {
    url = new URL(rule);
  } catch {
    throw new KeysFileError(`origin ${JSON.stringify(rule)} must be a URL origin (https://app.example.com) or *.example.com`);
  }
  if (url.origin === "null" || url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    throw new KeysFileError(`origin ${JSON.stringify(rule)} must be a bare origin (scheme, host, optional port)`);
  }
  return url.origin;
}

/** Parses and checks the keys file text; the error says what is wrong and where (never a key). */
export function parseKeysFile(text: string): KeysFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error, which may hold a key.
    throw new KeysFileError("not valid JSON");
  }
  const entries = isJsonObject(parsed) ? parsed.keys : undefined;
  if (!Array.isArray(entries)) {
    throw new KeysFileError('must be an object with a "keys" array');
  }
  const names = new Set<string>();
  const keys = entries.map((entry: unknown, index): StoredKey => {
    const where = `keys[${index}]`;
    if (!isJsonObject(entry)) throw new KeysFileError(`${where} must be an object`);
    const e = entry;
    // A hand-written entry may carry the key itself ({"key": "..."}); it is hashed on load.
    const sha256 = typeof e.key === "string" && e.key.length > 0 ? hashApiKey(e.key) : e.sha256;
    if (typeof sha256 !== "string" || !HEX64.test(sha256)) throw new KeysFileError(`${where}.sha256 must be 64 lowercase hex digits`);
    const name = e.name === undefined ? `key-${index}` : e.name;
    if (typeof name !== "string" || name.length === 0) throw new KeysFileError(`${where}.name must be a non-empty string`);
    if (names.has(name)) throw new KeysFileError(`${where}: the name ${JSON.stringify(name)} is used twice`);
    names.add(name);
    const kind = e.kind ?? "server";
    if (kind !== "server" && kind !== "browser") throw new KeysFileError(`${where}.kind must be "server" or "browser"`);
    const origins = e.origins ?? [];
    if (!Array.isArray(origins) || !origins.every((o) => typeof o === "string")) {
      throw new KeysFileError(`${where}.origins must be an array of strings`);
    }
    if (kind === "browser" && origins.length === 0) throw new KeysFileError(`${where}: a browser key needs at least one origin`);
    const rate = e.ratePerMinute ?? null;
    if (rate !== null && (typeof rate !== "number" || !Number.isInteger(rate) || rate < 1)) {
      throw new KeysFileError(`${where}.ratePerMinute must be a positive integer or null`);
    }
    return { name, sha256, kind, origins: origins.map(normalizeOriginRule), ratePerMinute: rate };
  });
  return { version: 1, keys };
}

/** The keys a deployment accepts, looked up by the hash of a presented key. */
export class KeyRing {
  private readonly byHash: ReadonlyMap<string, StoredKey>;

  constructor(readonly keys: readonly StoredKey[]) {
    this.byHash = new Map(keys.map((k) => [k.sha256, k]));
  }

  static readonly EMPTY = new KeyRing([]);

  lookup(presentedKey: string): StoredKey | undefined {
    return this.byHash.get(hashApiKey(presentedKey));
  }
}
