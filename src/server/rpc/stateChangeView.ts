import type { StateChangeCauseView, StateChangeWithCauseView } from "../../../generated/rpc/types.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../../chain/primitives/base64.js";
import { accountViewOf } from "../../chain/state/accountViews.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { StateChangeCause } from "../../chain/runtime/StateChangeCause.js";
import type { CausedStateChange } from "../../chain/views/BlockStateChanges.js";
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

/**
 * One change as nearcore's `StateChangeWithCauseView` (`{cause, type, change}`): `*_update`
 * with the value after the change, `*_deletion` when the change removed the entry.
 */
export function stateChangeView({ cause, change }: CausedStateChange): StateChangeWithCauseView {
  const causeView = stateChangeCauseView(cause);
  const account_id = change.accountId;
  switch (change.type) {
    case "account": {
      if (change.account === null) return { cause: causeView, type: "account_deletion", change: { account_id } };
      const a = accountViewOf(change.account);
      return {
        cause: causeView,
        type: "account_update",
        change: {
          account_id,
          amount: a.amount.toString(),
          locked: a.locked.toString(),
          code_hash: a.codeHash,
          storage_usage: a.storageUsage,
          storage_paid_at: 0,
          ...(a.globalContractHash !== undefined && { global_contract_hash: a.globalContractHash }),
          ...(a.globalContractAccountId !== undefined && { global_contract_account_id: a.globalContractAccountId }),
        },
      };
    }
    case "code":
      if (change.code === null) return { cause: causeView, type: "contract_code_deletion", change: { account_id } };
      return { cause: causeView, type: "contract_code_update", change: { account_id, code_base64: base64Encode(change.code) } };
    case "accessKey": {
      const public_key = typeof change.publicKey === "string" ? change.publicKey : formatPublicKey(change.publicKey);
      if (change.accessKey === null) return { cause: causeView, type: "access_key_deletion", change: { account_id, public_key } };
      return { cause: causeView, type: "access_key_update", change: { account_id, public_key, access_key: accessKeyView(change.accessKey) } };
    }
    case "gasKeyNonce": {
      const public_key = typeof change.publicKey === "string" ? change.publicKey : formatPublicKey(change.publicKey);
      return { cause: causeView, type: "gas_key_nonce_update", change: { account_id, public_key, index: change.index, nonce: Number(change.nonce) } };
    }
    case "data": {
      const key_base64 = base64Encode(change.key);
      if (change.value === null) return { cause: causeView, type: "data_deletion", change: { account_id, key_base64 } };
      return { cause: causeView, type: "data_update", change: { account_id, key_base64, value_base64: base64Encode(change.value) } };
    }
  }
}
