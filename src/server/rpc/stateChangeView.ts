import type { StateChangeCauseView, StateChangeWithCauseView } from "../../../generated/rpc/types.js";
import { decodeAccessKey } from "../../chain/primitives/accessKey.js";
import { decodeAccount } from "../../chain/primitives/account.js";
import { base58Encode } from "../../chain/primitives/base58.js";
import { base64Encode } from "../../chain/primitives/base64.js";
import { formatCryptoHash } from "../../chain/primitives/cryptoHash.js";
import { latin1ToBytes } from "../../chain/primitives/latin1.js";
import { formatPublicKey, publicKeyFromBorsh } from "../../chain/primitives/publicKey.js";
import type { KeyStateChanges, StateChangeCause } from "../../chain/runtime/StateChangeCause.js";
import { TrieKeyColumn } from "../../chain/store/trieKeys.js";
import { accessKeyView } from "./query/accessKeyView.js";

/** nearcore's `StateChangeCauseView`: snake_case `type`, hashes in base58. */
export function stateChangeCauseView(cause: StateChangeCause): StateChangeCauseView {
  switch (cause.type) {
    case "transaction_processing":
      return { type: cause.type, tx_hash: base58Encode(cause.txHash) };
    case "action_receipt_processing_started":
    case "action_receipt_gas_reward":
    case "receipt_processing":
    case "postponed_receipt":
      return { type: cause.type, receipt_hash: base58Encode(cause.receiptHash) };
    default:
      return { type: cause.type };
  }
}

/** Splits `column ‖ account_id ‖ ',' ‖ rest` (access keys, contract data). */
function accountAndRest(key: string): { accountId: string; rest: string } {
  const comma = key.indexOf(",", 1);
  if (comma < 0) throw new Error(`trie key of column ${key.charCodeAt(0)} without a separator`);
  return { accountId: key.slice(1, comma), rest: key.slice(comma + 1) };
}

/**
 * Every change of one key as nearcore's `StateChangeWithCauseView` (`{cause, type, change}`):
 * `*_update` with the value after the change, `*_deletion` when the change removed the key.
 */
export function stateChangeViews(entry: KeyStateChanges): StateChangeWithCauseView[] {
  const key = entry.key;
  const column = key.charCodeAt(0);
  return entry.changes.map(({ cause, value }): StateChangeWithCauseView => {
    const causeView = stateChangeCauseView(cause);
    switch (column) {
      case TrieKeyColumn.ACCOUNT: {
        const account_id = key.slice(1);
        if (value === null) return { cause: causeView, type: "account_deletion", change: { account_id } };
        const a = decodeAccount(latin1ToBytes(value));
        return {
          cause: causeView,
          type: "account_update",
          change: {
            account_id,
            amount: a.amount.toString(),
            locked: a.locked.toString(),
            code_hash: formatCryptoHash(a.codeHash),
            storage_usage: a.storageUsage,
            storage_paid_at: 0,
          },
        };
      }
      case TrieKeyColumn.CONTRACT_CODE: {
        const account_id = key.slice(1);
        if (value === null) return { cause: causeView, type: "contract_code_deletion", change: { account_id } };
        return { cause: causeView, type: "contract_code_update", change: { account_id, code_base64: base64Encode(latin1ToBytes(value)) } };
      }
      case TrieKeyColumn.ACCESS_KEY: {
        const { accountId: account_id, rest } = accountAndRest(key);
        const public_key = formatPublicKey(publicKeyFromBorsh(latin1ToBytes(rest)).key);
        if (value === null) return { cause: causeView, type: "access_key_deletion", change: { account_id, public_key } };
        const access_key = accessKeyView(decodeAccessKey(latin1ToBytes(value)));
        return { cause: causeView, type: "access_key_update", change: { account_id, public_key, access_key } };
      }
      case TrieKeyColumn.CONTRACT_DATA: {
        const { accountId: account_id, rest } = accountAndRest(key);
        const key_base64 = base64Encode(latin1ToBytes(rest));
        if (value === null) return { cause: causeView, type: "data_deletion", change: { account_id, key_base64 } };
        return { cause: causeView, type: "data_update", change: { account_id, key_base64, value_base64: base64Encode(latin1ToBytes(value)) } };
      }
      default:
        throw new Error(`state changes of trie column ${column} are not reported`);
    }
  });
}
