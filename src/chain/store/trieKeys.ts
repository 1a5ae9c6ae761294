import type { PublicKey } from "../primitives/publicKey.js";

/**
 * nearcore trie key layout (core/primitives/src/trie_key.rs), as latin1 strings. Account
 * ids are ASCII and cannot contain ',', so ',' cleanly ends the account part.
 */
export const TrieKeyColumn = { ACCOUNT: 0, CONTRACT_CODE: 1, ACCESS_KEY: 2, CONTRACT_DATA: 9 } as const;

const SEPARATOR = ",";

/**
 * Where keys with a byte tail are assembled before becoming strings (one reused buffer, no
 * Buffer per key); longer ones get their own. Holds an account prefix (≤ 66 bytes) and a
 * key of nearcore's default max_length_storage_key (2 KiB).
 */
const SCRATCH = Buffer.allocUnsafe(4096);

/**
 * Per-account keys are rebuilt on every read of the hot RPC paths; a small memo turns that
 * into a Map lookup. Bounded so that a genesis with millions of accounts cannot grow it.
 */
const memo = new Map<string, string>();
const MEMO_LIMIT = 10_000;

function perAccountKey(head: string, accountId: string, tail: string): string {
  const id = head + accountId + tail;
  let key = memo.get(id);
  if (key === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    key = flat(id);
    memo.set(id, key);
  }
  return key;
}

/** 0x00 ‖ account_id */
export function accountTrieKey(accountId: string): string {
  return perAccountKey("\x00", accountId, "");
}

/** 0x01 ‖ account_id */
export function contractCodeTrieKey(accountId: string): string {
  return perAccountKey("\x01", accountId, "");
}

/** 0x02 ‖ account_id ‖ ',' — every access key of the account lies under it. */
export function accessKeysPrefix(accountId: string): string {
  return perAccountKey("\x02", accountId, SEPARATOR);
}

/** 0x02 ‖ account_id ‖ ',' ‖ borsh(public_key) */
export function accessKeyTrieKey(accountId: string, publicKey: PublicKey): string {
  // The borsh key (type byte ‖ data) is written in place: every transaction and every gas
  // refund builds one of these keys.
  const prefix = accessKeysPrefix(accountId);
  SCRATCH.write(prefix, 0, "latin1");
  SCRATCH[prefix.length] = publicKey.keyType;
  SCRATCH.set(publicKey.data, prefix.length + 1);
  return SCRATCH.toString("latin1", 0, prefix.length + 1 + publicKey.data.length);
}

/** 0x09 ‖ account_id ‖ ',' — the contract's data lies under it, in raw key order. */
export function contractDataPrefix(accountId: string): string {
  return perAccountKey("\x09", accountId, SEPARATOR);
}

/** 0x09 ‖ account_id ‖ ',' ‖ key, with `key` given as bytes. */
export function contractDataTrieKey(accountId: string, key: Uint8Array): string {
  return withTail(contractDataPrefix(accountId), key);
}

/**
 * Concatenation makes V8 rope strings that cost extra memory per key; round-tripping through
 * a Buffer yields a flat one-byte string. Only used on short, per-account strings.
 */
function flat(s: string): string {
  return Buffer.from(s, "latin1").toString("latin1");
}

/** `prefix` followed by `tail`'s bytes, as one flat latin1 string. */
export function withTail(prefix: string, tail: Uint8Array): string {
  const n = prefix.length + tail.length;
  const buf = n <= SCRATCH.length ? SCRATCH : Buffer.allocUnsafe(n);
  buf.write(prefix, 0, "latin1");
  buf.set(tail, prefix.length);
  return buf.toString("latin1", 0, n);
}

/**
 * True for the columns whose changes nearcore keeps for the state changes RPCs (accounts,
 * contract code, access keys, contract data); receipts, received data and the delayed queue
 * are left out (`WrappedTrieChanges::state_changes_into`).
 */
export function isReportedStateKey(key: string): boolean {
  const column = key.charCodeAt(0);
  return (
    column === TrieKeyColumn.ACCOUNT ||
    column === TrieKeyColumn.CONTRACT_CODE ||
    column === TrieKeyColumn.ACCESS_KEY ||
    column === TrieKeyColumn.CONTRACT_DATA
  );
}
