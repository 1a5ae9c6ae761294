import { KeyType, type PublicKey } from "@shardkit/primitives/publicKey";
import { publicKeyHandleBorsh } from "@shardkit/primitives/publicKeyHandle";

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
 * Per-account keys are rebuilt on every read of the hot RPC paths and several times per
 * transaction; a memo per key kind, looked up by the account id itself (no concatenated
 * string to hash per lookup), turns that into one Map lookup. Bounded so that a genesis with
 * millions of accounts cannot grow it.
 */
const MEMO_LIMIT = 10_000;

class PerAccountKeys {
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly head: string,
    private readonly tail: string,
  ) {}

  of(accountId: string): string {
    let key = this.keys.get(accountId);
    if (key === undefined) {
      if (this.keys.size >= MEMO_LIMIT) this.keys.clear();
      key = flat(this.head + accountId + this.tail);
      this.keys.set(accountId, key);
    }
    return key;
  }
}

const ACCOUNT_KEYS = new PerAccountKeys("\x00", "");
const CODE_KEYS = new PerAccountKeys("\x01", "");
const ACCESS_KEY_PREFIXES = new PerAccountKeys("\x02", SEPARATOR);
const CONTRACT_DATA_PREFIXES = new PerAccountKeys("\x09", SEPARATOR);

/** 0x00 ‖ account_id */
export function accountTrieKey(accountId: string): string {
  return ACCOUNT_KEYS.of(accountId);
}

/** 0x01 ‖ account_id */
export function contractCodeTrieKey(accountId: string): string {
  return CODE_KEYS.of(accountId);
}

/** 0x02 ‖ account_id ‖ ',' — every access key of the account lies under it. */
export function accessKeysPrefix(accountId: string): string {
  return ACCESS_KEY_PREFIXES.of(accountId);
}

/**
 * 0x02 ‖ account_id ‖ ',' ‖ borsh(key handle): the borsh public key for ed25519/secp256k1,
 * 3 ‖ SHA3-256 digest for ML-DSA-65 (nearcore stores those keys by `PublicKeyHandle`).
 */
export function accessKeyTrieKey(accountId: string, publicKey: PublicKey): string {
  if (publicKey.keyType === KeyType.MLDSA65) return accessKeyTrieKeyOfHandle(accountId, publicKeyHandleBorsh(publicKey));
  // The borsh key (type byte ‖ data) is written in place: every transaction and every gas
  // refund builds one of these keys.
  const prefix = accessKeysPrefix(accountId);
  SCRATCH.write(prefix, 0, "latin1");
  SCRATCH[prefix.length] = publicKey.keyType;
  SCRATCH.set(publicKey.data, prefix.length + 1);
  return SCRATCH.toString("latin1", 0, prefix.length + 1 + publicKey.data.length);
}

/** 0x02 ‖ account_id ‖ ',' ‖ handle, for a key named by its borsh handle (`parsePublicKeyHandle`). */
export function accessKeyTrieKeyOfHandle(accountId: string, handle: Uint8Array): string {
  return withTail(accessKeysPrefix(accountId), handle);
}

/** 0x09 ‖ account_id ‖ ',' — the contract's data lies under it, in raw key order. */
export function contractDataPrefix(accountId: string): string {
  return CONTRACT_DATA_PREFIXES.of(accountId);
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
