import type { Account } from "../primitives/account.js";
import { latin1ToBytes } from "../primitives/latin1.js";
import { sha256 } from "../primitives/sha256.js";
import { globalContractCodeKey } from "../runtime/runtimeTrieKeys.js";
import { contractCodeTrieKey } from "../store/trieKeys.js";

/** The code an account runs and its hash; `code` reads it from state only when asked. */
export interface ResolvedContract {
  readonly hash: Uint8Array;
  readonly code: () => Uint8Array;
}

const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

/**
 * nearcore `AccountContract::code`/`hash` (global_contracts.rs): the local code under the
 * account, or the global contract it uses, read from the same shard's state (distribution
 * copies global code to every shard). A code-hash identifier is its own hash; an account-id
 * one hashes the code stored now (nearcore takes the trie value's hash, the same sha256).
 * Undefined when the account runs no code, or its global contract has not reached this shard.
 */
export function contractCodeOf(get: (key: string) => string | undefined, accountId: string, account: Account): ResolvedContract | undefined {
  const global = account.globalContract;
  if (global === undefined) {
    if (isZero(account.codeHash)) return undefined;
    const key = contractCodeTrieKey(accountId);
    return { hash: account.codeHash, code: () => latin1ToBytes(get(key) ?? "") };
  }
  const raw = get(globalContractCodeKey(global));
  if (raw === undefined) return undefined;
  const code = latin1ToBytes(raw);
  return { hash: global.kind === "CodeHash" ? global.codeHash : sha256(code), code: () => code };
}
