import { decodeAccessKey, gasKeyInfoOf, type AccessKey } from "@shardkit/primitives/accessKey";
import { decodeAccount, storageUsageOfStored, type Account } from "../primitives/account.js";
import { formatCryptoHash } from "../primitives/cryptoHash.js";
import { latin1ToBytes } from "../primitives/latin1.js";
import { parsePublicKey } from "@shardkit/primitives/publicKey";
import { formatPublicKeyHandle } from "@shardkit/primitives/publicKeyHandle";
import type { StateSnapshot } from "../store/stateStore.js";
import {
  decodeGasKeyNonce,
  gasKeyNonceKey,
  globalContractCodeKey,
  isGasKeyNonceTail,
  type GlobalContractKeyId,
} from "../runtime/runtimeTrieKeys.js";
import { accessKeyTrieKey, accessKeysPrefix, accountTrieKey, contractCodeTrieKey } from "../store/trieKeys.js";
import { contractCodeOf } from "./contractCodeOf.js";

/** What `view_account` needs, decoded from state. */
export interface AccountView {
  readonly amount: bigint;
  readonly locked: bigint;
  /** base58; the zero hash (32 '1's) when no code is deployed. */
  readonly codeHash: string;
  readonly storageUsage: number;
  /** base58 hash of the global contract the account uses by code hash (nearcore `global_contract_hash`). */
  readonly globalContractHash?: string;
  /** Account whose global contract the account uses (nearcore `global_contract_account_id`). */
  readonly globalContractAccountId?: string;
}

export function readAccount(state: StateSnapshot, accountId: string): Account | undefined {
  const raw = state.get(accountTrieKey(accountId));
  return raw === undefined ? undefined : decodeAccount(latin1ToBytes(raw));
}

export function viewAccountIn(state: StateSnapshot, accountId: string): AccountView | undefined {
  const a = readAccount(state, accountId);
  if (a === undefined) return undefined;
  return accountViewOf(a);
}

/** nearcore `AccountView` from an account: `code_hash` is the local code's (zeros for a global contract). */
export function accountViewOf(a: Account): AccountView {
  const g = a.globalContract;
  return {
    amount: a.amount,
    locked: a.locked,
    codeHash: formatCryptoHash(a.codeHash),
    storageUsage: a.storageUsage,
    ...(g?.kind === "CodeHash" && { globalContractHash: formatCryptoHash(g.codeHash) }),
    ...(g?.kind === "AccountId" && { globalContractAccountId: g.accountId }),
  };
}

/**
 * An account's storage usage without decoding the rest, or undefined when it does not exist:
 * the existence check and size gate of view_state run on every page request.
 */
export function storageUsageIn(state: StateSnapshot, accountId: string): number | undefined {
  const raw = state.get(accountTrieKey(accountId));
  return raw === undefined ? undefined : storageUsageOfStored(raw);
}

/**
 * One access key; `publicKey` is a full key string "ed25519:…"/"secp256k1:…"/"ml-dsa-65:…", as
 * nearcore's view_access_key takes (throws PublicKeyError if not).
 */
export function viewAccessKeyIn(state: StateSnapshot, accountId: string, publicKey: string): AccessKey | undefined {
  const raw = state.get(accessKeyTrieKey(accountId, parsePublicKey(publicKey)));
  return raw === undefined ? undefined : decodeAccessKey(latin1ToBytes(raw));
}

/**
 * All access keys of an account, in trie order (by borsh key handle bytes); ML-DSA-65 keys are
 * listed by their "ml-dsa-65-hash:…" handle, as nearcore's view_access_key_list does. A gas
 * key's nonce rows (stored under the same prefix) are not keys and are skipped.
 */
export function viewAccessKeysIn(state: StateSnapshot, accountId: string): { publicKey: string; accessKey: AccessKey }[] {
  const prefix = accessKeysPrefix(accountId);
  const out: { publicKey: string; accessKey: AccessKey }[] = [];
  state.scan(prefix, undefined, (key, value) => {
    if (isGasKeyNonceTail(key.slice(prefix.length))) return;
    out.push({ publicKey: formatPublicKeyHandle(latin1ToBytes(key.slice(prefix.length))), accessKey: decodeAccessKey(latin1ToBytes(value)) });
  });
  return out;
}

/**
 * nearcore `view_gas_key_nonces`: the nonce of each index of a gas key, in index order;
 * undefined when the key is missing or not a gas key.
 */
export function viewGasKeyNoncesIn(state: StateSnapshot, accountId: string, publicKey: string): bigint[] | undefined {
  const keyKey = accessKeyTrieKey(accountId, parsePublicKey(publicKey));
  const raw = state.get(keyKey);
  const info = raw === undefined ? undefined : gasKeyInfoOf(decodeAccessKey(latin1ToBytes(raw)).permission);
  if (info === undefined) return undefined;
  const nonces: bigint[] = [];
  for (let i = 0; i < info.numNonces; i++) {
    const value = state.get(gasKeyNonceKey(keyKey, i));
    nonces.push(value === undefined ? 0n : decodeGasKeyNonce(value));
  }
  return nonces;
}

/**
 * The code an account runs (nearcore `view_contract_code`): its own, or the global contract it
 * uses as this shard has it. Undefined without code.
 */
export function viewCodeIn(state: StateSnapshot, accountId: string): Uint8Array | undefined {
  const account = readAccount(state, accountId);
  if (account === undefined) return undefined;
  if (account.globalContract === undefined) {
    const raw = state.get(contractCodeTrieKey(accountId));
    return raw === undefined ? undefined : latin1ToBytes(raw);
  }
  return contractCodeOf((key) => state.get(key), accountId, account)?.code();
}

/** A global contract's code as a shard has it (nearcore `view_global_contract_code[_by_account_id]`). */
export function viewGlobalContractCodeIn(state: StateSnapshot, id: GlobalContractKeyId): Uint8Array | undefined {
  const raw = state.get(globalContractCodeKey(id));
  return raw === undefined ? undefined : latin1ToBytes(raw);
}

export function codeLengthIn(state: StateSnapshot, accountId: string): number {
  return state.get(contractCodeTrieKey(accountId))?.length ?? 0;
}
