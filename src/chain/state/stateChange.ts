import { decodeAccessKey, encodeAccessKey, type AccessKey } from "@shardkit/primitives/accessKey";
import { accountStateValue, decodeAccount, type Account } from "../primitives/account.js";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import { parsePublicKey, publicKeyFromBorsh, type PublicKey } from "@shardkit/primitives/publicKey";
import { ML_DSA_65_HASH_TAG, formatPublicKeyHandle, parsePublicKeyHandle } from "@shardkit/primitives/publicKeyHandle";
import { decodeGasKeyNonce, encodeGasKeyNonce, gasKeyNonceKey, isGasKeyNonceTail } from "../runtime/runtimeTrieKeys.js";
import { accessKeyTrieKey, accessKeyTrieKeyOfHandle, accountTrieKey, contractCodeTrieKey, contractDataTrieKey, TrieKeyColumn } from "../store/trieKeys.js";

/**
 * A typed state write for the next block; `null` deletes. Storage usage is not recomputed
 * here: whoever produces the changes (the runtime) writes the account it has accounted for.
 */
export type StateChange =
  | { readonly type: "account"; readonly accountId: string; readonly account: Account | null }
  | {
      readonly type: "accessKey";
      readonly accountId: string;
      /** A key, or its string form; an ML-DSA-65 key read back from state is "ml-dsa-65-hash:…". */
      readonly publicKey: string | PublicKey;
      readonly accessKey: AccessKey | null;
    }
  | {
      /** One nonce of a gas key (NEP-611); deleting a nonce row is not reported (nearcore has no such view). */
      readonly type: "gasKeyNonce";
      readonly accountId: string;
      readonly publicKey: string | PublicKey;
      readonly index: number;
      readonly nonce: bigint;
    }
  | { readonly type: "code"; readonly accountId: string; readonly code: Uint8Array | null }
  | { readonly type: "data"; readonly accountId: string; readonly key: Uint8Array; readonly value: Uint8Array | null };

/** The trie key and latin1 value (null = delete) a change writes. */
export function stateChangeToWrite(change: StateChange): { key: string; value: string | null } {
  switch (change.type) {
    case "account":
      return {
        key: accountTrieKey(change.accountId),
        value: change.account === null ? null : accountStateValue(change.account),
      };
    case "accessKey": {
      return {
        key: accessKeyKeyOf(change.accountId, change.publicKey),
        value: change.accessKey === null ? null : bytesToLatin1(encodeAccessKey(change.accessKey)),
      };
    }
    case "gasKeyNonce":
      return { key: gasKeyNonceKey(accessKeyKeyOf(change.accountId, change.publicKey), change.index), value: encodeGasKeyNonce(change.nonce) };
    case "code":
      return { key: contractCodeTrieKey(change.accountId), value: change.code === null ? null : bytesToLatin1(change.code) };
    case "data":
      return {
        key: contractDataTrieKey(change.accountId, change.key),
        value: change.value === null ? null : bytesToLatin1(change.value),
      };
  }
}

function accessKeyKeyOf(accountId: string, publicKey: string | PublicKey): string {
  if (typeof publicKey !== "string") return accessKeyTrieKey(accountId, publicKey);
  // Only the hash form needs the handle parser; a full key (any type) hashes as it should.
  if (publicKey.startsWith("ml-dsa-65-hash:")) return accessKeyTrieKeyOfHandle(accountId, parsePublicKeyHandle(publicKey));
  return accessKeyTrieKey(accountId, parsePublicKey(publicKey));
}

/** `column ‖ account_id ‖ ',' ‖ tail` (access keys, contract data) split at the separator. */
function accountAndTail(key: string): { accountId: string; tail: string } {
  const comma = key.indexOf(",", 1);
  if (comma < 0) throw new Error(`trie key of column ${key.charCodeAt(0)} without a separator`);
  return { accountId: key.slice(1, comma), tail: key.slice(comma + 1) };
}

/**
 * The typed change a write makes (the inverse of stateChangeToWrite): for a key of the four
 * reported columns (accounts, contract code, access keys, contract data) with its latin1
 * value (`null` = deleted); undefined for any other column (receipts, the delayed queue...).
 * Access keys come back with a parsed PublicKey, ML-DSA-65 ones as their "ml-dsa-65-hash:"
 * string (state holds only the key's digest). A gas key's nonce rows are `gasKeyNonce`
 * changes; their deletion is not reported (undefined).
 */
export function stateChangeOfWrite(key: string, value: string | null): StateChange | undefined {
  switch (key.charCodeAt(0)) {
    case TrieKeyColumn.ACCOUNT:
      return { type: "account", accountId: key.slice(1), account: value === null ? null : decodeAccount(latin1ToBytes(value)) };
    case TrieKeyColumn.CONTRACT_CODE:
      return { type: "code", accountId: key.slice(1), code: value === null ? null : latin1ToBytes(value) };
    case TrieKeyColumn.ACCESS_KEY: {
      const { accountId, tail } = accountAndTail(key);
      const nonceRow = isGasKeyNonceTail(tail);
      const bytes = latin1ToBytes(nonceRow ? tail.slice(0, -2) : tail);
      const publicKey = bytes[0] === ML_DSA_65_HASH_TAG ? formatPublicKeyHandle(bytes) : publicKeyFromBorsh(bytes).key;
      if (nonceRow) {
        if (value === null) return undefined;
        const index = tail.charCodeAt(tail.length - 2) | (tail.charCodeAt(tail.length - 1) << 8);
        return { type: "gasKeyNonce", accountId, publicKey, index, nonce: decodeGasKeyNonce(value) };
      }
      return { type: "accessKey", accountId, publicKey, accessKey: value === null ? null : decodeAccessKey(latin1ToBytes(value)) };
    }
    case TrieKeyColumn.CONTRACT_DATA: {
      const { accountId, tail } = accountAndTail(key);
      return { type: "data", accountId, key: latin1ToBytes(tail), value: value === null ? null : latin1ToBytes(value) };
    }
    default:
      return undefined;
  }
}
