import { decodeAccessKey, encodeAccessKey, gasKeyInfoOf, type AccessKey } from "@shardkit/primitives/accessKey";
import { accountStateValue, decodeAccount, type Account } from "../primitives/account.js";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import type { PublicKey } from "@shardkit/primitives/publicKey";
import {
  accessKeyTrieKey,
  accessKeysPrefix,
  accountTrieKey,
  contractCodeTrieKey,
  contractDataPrefix,
} from "../store/trieKeys.js";
import { decodeGasKeyNonce, encodeGasKeyNonce, gasKeyNonceKey, isGasKeyNonceTail } from "./runtimeTrieKeys.js";
import type { StateUpdate } from "./StateUpdate.js";

/** Typed reads and writes of accounts, keys and code through a {@link StateUpdate}. */

export function getAccount(su: StateUpdate, accountId: string): Account | undefined {
  const raw = su.get(accountTrieKey(accountId));
  return raw === undefined ? undefined : decodeAccount(latin1ToBytes(raw));
}

export function setAccount(su: StateUpdate, accountId: string, account: Account): void {
  su.set(accountTrieKey(accountId), accountStateValue(account));
}

export function getAccessKey(su: StateUpdate, accountId: string, publicKey: PublicKey): AccessKey | undefined {
  const raw = su.get(accessKeyTrieKey(accountId, publicKey));
  return raw === undefined ? undefined : decodeAccessKey(latin1ToBytes(raw));
}

/**
 * The access key unless it is missing or full-access (a function-call or gas key). A
 * full-access key is recognised from its 9 stored bytes (nonce u64, tag 1) without decoding
 * them: every gas refund asks this of the key that paid, which is usually full-access.
 */
export function getFunctionCallAccessKey(su: StateUpdate, accountId: string, publicKey: PublicKey): AccessKey | undefined {
  const raw = su.get(accessKeyTrieKey(accountId, publicKey));
  if (raw === undefined || (raw.length === FULL_ACCESS_KEY_LENGTH && raw.charCodeAt(8) === FULL_ACCESS_TAG)) return undefined;
  return decodeAccessKey(latin1ToBytes(raw));
}
const FULL_ACCESS_KEY_LENGTH = 9;
const FULL_ACCESS_TAG = 1;

export function setAccessKey(su: StateUpdate, accountId: string, publicKey: PublicKey, key: AccessKey): void {
  su.set(accessKeyTrieKey(accountId, publicKey), bytesToLatin1(encodeAccessKey(key)));
}

export function removeAccessKey(su: StateUpdate, accountId: string, publicKey: PublicKey): void {
  su.remove(accessKeyTrieKey(accountId, publicKey));
}

/** The nonce of one index of a gas key (undefined when the row does not exist). */
export function getGasKeyNonce(su: StateUpdate, accountId: string, publicKey: PublicKey, index: number): bigint | undefined {
  const raw = su.get(gasKeyNonceKey(accessKeyTrieKey(accountId, publicKey), index));
  return raw === undefined ? undefined : decodeGasKeyNonce(raw);
}

export function setGasKeyNonce(su: StateUpdate, accountId: string, publicKey: PublicKey, index: number, nonce: bigint): void {
  su.set(gasKeyNonceKey(accessKeyTrieKey(accountId, publicKey), index), encodeGasKeyNonce(nonce));
}

export function removeGasKeyNonces(su: StateUpdate, accountId: string, publicKey: PublicKey, numNonces: number): void {
  const keyKey = accessKeyTrieKey(accountId, publicKey);
  for (let i = 0; i < numNonces; i++) su.remove(gasKeyNonceKey(keyKey, i));
}

/** nearcore `compute_gas_key_balance_sum`: the balances of all gas keys of an account. */
export function gasKeyBalanceSum(su: StateUpdate, accountId: string): bigint {
  const prefix = accessKeysPrefix(accountId);
  let sum = 0n;
  for (const key of su.keysWithPrefix(prefix)) {
    const raw = su.get(key);
    if (raw === undefined || isGasKeyNonceTail(key.slice(prefix.length))) continue;
    sum += gasKeyInfoOf(decodeAccessKey(latin1ToBytes(raw)).permission)?.balance ?? 0n;
  }
  return sum;
}

/** Deployed code length in bytes (0 without code). */
export function codeLength(su: StateUpdate, accountId: string): number {
  return su.get(contractCodeTrieKey(accountId))?.length ?? 0;
}

export function setCode(su: StateUpdate, accountId: string, code: Uint8Array): void {
  su.set(contractCodeTrieKey(accountId), bytesToLatin1(code));
}

export function removeCode(su: StateUpdate, accountId: string): void {
  su.remove(contractCodeTrieKey(accountId));
}

/** nearcore `remove_account`: the account, its code, access keys and contract data. */
export function removeAccountState(su: StateUpdate, accountId: string): void {
  su.remove(accountTrieKey(accountId));
  su.remove(contractCodeTrieKey(accountId));
  for (const prefix of [accessKeysPrefix(accountId), contractDataPrefix(accountId)]) {
    for (const key of su.keysWithPrefix(prefix)) su.remove(key);
  }
}
