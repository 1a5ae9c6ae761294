import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import { contractDataTrieKey } from "../store/trieKeys.js";
import type { VmExternal } from "./VmExternal.js";

/** Reads and writes of one account's contract data as trie keys (`0x09 ‖ account ‖ ',' ‖ key`). */
export interface StateAccess {
  get(key: string): string | undefined;
  set?(key: string, value: string): void;
  remove?(key: string): void;
}

/** A {@link VmExternal} over `state` for `accountId`; without set/remove, writes are a host bug. */
export function stateExternal(state: StateAccess, accountId: string, validators: ReadonlyMap<string, bigint>): VmExternal {
  let total: bigint | undefined;
  return {
    storageGet(key) {
      const raw = state.get(contractDataTrieKey(accountId, key));
      return raw === undefined ? undefined : latin1ToBytes(raw);
    },
    storageSet(key, value) {
      if (state.set === undefined) throw new Error("state is read-only");
      state.set(contractDataTrieKey(accountId, key), bytesToLatin1(value));
    },
    storageRemove(key) {
      if (state.remove === undefined) throw new Error("state is read-only");
      state.remove(contractDataTrieKey(accountId, key));
    },
    validatorStake: (id) => validators.get(id),
    validatorTotalStake() {
      total ??= [...validators.values()].reduce((s, v) => s + v, 0n);
      return total;
    },
  };
}
