// kv: a key-value store. Keys and values are raw bytes in the contract's storage (so view_state
// shows them as written); `list` walks a sorted per-first-byte key index, since NEAR has no
// storage iteration. Keys starting with 0x00 are reserved for that index.
import { Obj, arr, parseArgs, quote, JValue } from "../sdk/json";
import { base64Decode, base64Encode } from "../sdk/base64";
import { fromUtf8, input, log, returnJson, storageRead, storageRemove, storageWrite, utf8 } from "../sdk/near";
import { panicStr, require } from "../sdk/panic";

const MAX_LIMIT: i32 = 1000;

/** `encoding`: "utf8" (default) or "base64", for key, prefix and value in both directions. */
function isBase64(args: JValue): bool {
  const e = args.optStr("encoding");
  if (e == null || e == "utf8") return false;
  if (e == "base64") return true;
  panicStr("encoding must be \"utf8\" or \"base64\"");
  return false;
}

function decode(s: string, b64: bool): Uint8Array {
  if (!b64) return utf8(s);
  const b = base64Decode(s);
  if (b == null) panicStr("invalid base64");
  return b!;
}

function encode(b: Uint8Array, b64: bool): string {
  return b64 ? base64Encode(b) : fromUtf8(b);
}

function userKey(args: JValue, b64: bool): Uint8Array {
  const key = decode(args.str("key"), b64);
  require(key.length > 0, "key must not be empty");
  require(key[0] != 0, "keys starting with 0x00 are reserved for the index");
  return key;
}

// The index: bucket "\0" ‖ first key byte → sorted keys, each as u16 LE length ‖ bytes.

function bucketKey(first: u8): Uint8Array {
  const k = new Uint8Array(2);
  k[1] = first;
  return k;
}

function bucketKeys(first: u8): Uint8Array[] {
  const raw = storageRead(bucketKey(first));
  const keys: Uint8Array[] = [];
  if (raw == null) return keys;
  let p = 0;
  while (p < raw.length) {
    const len = <i32>raw[p] | (<i32>raw[p + 1] << 8);
    keys.push(raw.slice(p + 2, p + 2 + len));
    p += 2 + len;
  }
  return keys;
}

function saveBucket(first: u8, keys: Uint8Array[]): void {
  if (keys.length == 0) {
    storageRemove(bucketKey(first));
    return;
  }
  let size = 0;
  for (let i = 0; i < keys.length; i++) size += 2 + keys[i].length;
  const raw = new Uint8Array(size);
  let p = 0;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    raw[p] = <u8>(k.length & 0xff);
    raw[p + 1] = <u8>(k.length >> 8);
    raw.set(k, p + 2);
    p += 2 + k.length;
  }
  storageWrite(bucketKey(first), raw);
}

function compare(a: Uint8Array, b: Uint8Array): i32 {
  const n = min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] != b[i]) return <i32>a[i] - <i32>b[i];
  return a.length - b.length;
}

function startsWith(k: Uint8Array, prefix: Uint8Array): bool {
  if (k.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (k[i] != prefix[i]) return false;
  return true;
}

/** set({key, value, encoding?}): stores value under key. */
export function set(): void {
  const args = parseArgs(input());
  const b64 = isBase64(args);
  const key = userKey(args, b64);
  require(key.length <= 1024, "key is longer than 1024 bytes");
  const value = decode(args.str("value"), b64);
  if (!storageWrite(key, value)) {
    const keys = bucketKeys(key[0]);
    let at = 0;
    while (at < keys.length && compare(keys[at], key) < 0) at++;
    keys.push(key);
    for (let i = keys.length - 1; i > at; i--) keys[i] = keys[i - 1];
    keys[at] = key;
    saveBucket(key[0], keys);
  }
  log("set " + args.str("key"));
}

/** get({key, encoding?}) → the value, or null. */
export function get(): void {
  const args = parseArgs(input());
  const b64 = isBase64(args);
  const v = storageRead(userKey(args, b64));
  returnJson(v == null ? "null" : quote(encode(v, b64)));
}

/** remove({key, encoding?}) → true when the key existed. */
export function remove(): void {
  const args = parseArgs(input());
  const b64 = isBase64(args);
  const key = userKey(args, b64);
  const existed = storageRemove(key) != null;
  if (existed) {
    const keys = bucketKeys(key[0]);
    for (let i = 0; i < keys.length; i++) {
      if (compare(keys[i], key) == 0) {
        keys.splice(i, 1);
        break;
      }
    }
    saveBucket(key[0], keys);
    log("remove " + args.str("key"));
  }
  returnJson(existed ? "true" : "false");
}

/**
 * list({prefix?, from_index?, limit?, encoding?}) → [{key, value}] of the keys starting with
 * prefix, in byte order, skipping from_index of them and returning at most limit (default 100,
 * at most 1000).
 */
export function list(): void {
  const args = parseArgs(input());
  const b64 = isBase64(args);
  const ps = args.optStr("prefix");
  const prefix = ps == null ? new Uint8Array(0) : decode(ps, b64);
  const from = args.optNumberU64("from_index", 0);
  const limit = args.optNumberU64("limit", 100);
  require(limit <= <u64>MAX_LIMIT, "limit must be at most 1000");
  const out: string[] = [];
  let skipped: u64 = 0;
  const firstLo = prefix.length > 0 ? <i32>prefix[0] : 1;
  const firstHi = prefix.length > 0 ? <i32>prefix[0] : 255;
  for (let f = firstLo; f <= firstHi && <u64>out.length < limit; f++) {
    const keys = bucketKeys(<u8>f);
    for (let i = 0; i < keys.length && <u64>out.length < limit; i++) {
      const k = keys[i];
      if (!startsWith(k, prefix)) continue;
      if (skipped < from) {
        skipped++;
        continue;
      }
      const v = storageRead(k);
      out.push(new Obj().str("key", encode(k, b64)).str("value", encode(v == null ? new Uint8Array(0) : v!, b64)).build());
    }
  }
  returnJson(arr(out));
}
