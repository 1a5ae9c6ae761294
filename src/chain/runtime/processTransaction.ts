import type { DecodedSignedTransaction } from "../transaction/index.js";
import type { ApplyContext } from "./ApplyContext.js";
import type { ExecutionOutcome } from "./executionOutcome.js";
import type { InvalidTxErrorJson } from "./invalidTxError.js";
import type { ActionReceiptOf } from "./receipt.js";
import { receiptIdFromTransaction } from "./receiptId.js";
import { setAccessKey, setAccount } from "./stateAccess.js";
import type { StateUpdate } from "./StateUpdate.js";
import { verifyAndChargeTransaction } from "./verifyAndChargeTransaction.js";

export type ProcessedTransaction =
  | { readonly ok: true; readonly receipt: ActionReceiptOf; readonly outcome: ExecutionOutcome; readonly burnt: bigint }
  | { readonly ok: false; readonly error: InvalidTxErrorJson };

/**
 * nearcore lib.rs `process_transaction`: verifies and charges the transaction against the
 * chunk's state (nonce upper bound at this block's height), stores the signer and key, and
 * turns it into an action receipt from the signer bought at this block's gas price. The
 * outcome burns the send fees and points at the receipt (metadata V1, no gas profile).
 */
export function processTransaction(ctx: ApplyContext, su: StateUpdate, stx: DecodedSignedTransaction): ProcessedTransaction {
  const tx = stx.transaction;
  const verified = verifyAndChargeTransaction(ctx.params, su, tx, ctx.gasPrice, { blockHeight: ctx.blockHeight });
  if (!verified.ok) return verified;
  const { cost, signer, accessKey } = verified.value;
  setAccount(su, tx.signerId, signer);
  setAccessKey(su, tx.signerId, tx.publicKey, accessKey);
  su.commit({ type: "transaction_processing", txHash: stx.hash });
  const receiptId = receiptIdFromTransaction(stx.hash, ctx.blockHeight);
  const receipt: ActionReceiptOf = {
    predecessorId: tx.signerId,
    receiverId: tx.receiverId,
    receiptId,
    body: {
      type: "Action",
      signerId: tx.signerId,
      signerPublicKey: tx.publicKey,
      gasPrice: cost.receiptGasPrice,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: tx.actions,
    },
  };
  return {
    ok: true,
    receipt,
    burnt: cost.burntAmount,
    outcome: {
      id: stx.hash,
      logs: [],
      receiptIds: [receiptId],
      gasBurnt: cost.gasBurnt,
      tokensBurnt: cost.burntAmount,
      executorId: tx.signerId,
      status: { kind: "SuccessReceiptId", receiptId },
      metadataVersion: 1,
    },
  };
}
