import { encodeAccessKey, type AccessKey } from "../primitives/accessKey.js";
import { accountStateValue, type Account } from "../primitives/account.js";
import { bytesToLatin1 } from "../primitives/latin1.js";
import { parsePublicKey, type PublicKey } from "../primitives/publicKey.js";
import { accessKeyTrieKey, accountTrieKey, contractCodeTrieKey, contractDataTrieKey } from "../store/trieKeys.js";

/**
 * A typed state write for the next block; `null` deletes. Storage usage is not recomputed
 * here: whoever produces the changes (the runtime) writes the account it has accounted for.
 */
export type StateChange =
  | { readonly type: "account"; readonly accountId: string; readonly account: Account | null }
  | {
      readonly type: "accessKey";
      readonly accountId: string;
      readonly publicKey: string | PublicKey;
      readonly accessKey: AccessKey | null;
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
      const pk = typeof change.publicKey === "string" ? parsePublicKey(change.publicKey) : change.publicKey;
      return {
        key: accessKeyTrieKey(change.accountId, pk),
        value: change.accessKey === null ? null : bytesToLatin1(encodeAccessKey(change.accessKey)),
      };
    }
    case "code":
      return { key: contractCodeTrieKey(change.accountId), value: change.code === null ? null : bytesToLatin1(change.code) };
    case "data":
      return {
        key: contractDataTrieKey(change.accountId, change.key),
        value: change.value === null ? null : bytesToLatin1(change.value),
      };
  }
}
