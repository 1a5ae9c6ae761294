import type { DecodedSignedTransaction } from "../transaction/index.js";
import type { ApplyContext } from "./ApplyContext.js";
import type { ExecutionOutcome } from "./executionOutcome.js";
import type { InvalidTxErrorJson } from "./invalidTxError.js";
import type { ActionReceiptOf } from "./receipt.js";
import { receiptIdFromTransaction } from "./receiptId.js";
import { setAccessKey, setAccount, setGasKeyNonce } from "./stateAccess.js";
import type { StateUpdate } from "./StateUpdate.js";
import { verifyAndChargeTransaction, type ChargedTransaction } from "./verifyAndChargeTransaction.js";

/** An included transaction has a receipt, except a gas-key one whose deposits failed (none). */
export type ProcessedTransaction =
  | { readonly ok: true; readonly receipt: ActionReceiptOf | undefined; readonly outcome: ExecutionOutcome; readonly burnt: bigint }
  | { readonly ok: false; readonly error: InvalidTxErrorJson };

/**
 * nearcore lib.rs `process_transaction`: verifies and charges the transaction against the
 * chunk's state (nonce upper bound at this block's height), stores the signer and key, and
 * turns it into an action receipt from the signer bought at this block's gas price. The
 * outcome burns the send fees and points at the receipt (metadata V1, no gas profile).
 * A gas-key transaction whose account cannot pay its deposits (nearcore `DepositFailed`) is
 * included without a receipt: the key pays the conversion's burnt gas, its nonce moves, and
 * the outcome fails with the InvalidTxError.
 */
export function processTransaction(ctx: ApplyContext, su: StateUpdate, stx: DecodedSignedTransaction): ProcessedTransaction {
  const tx = stx.transaction;
  const verified = verifyAndChargeTransaction(ctx.params, su, tx, ctx.gasPrice, { blockHeight: ctx.blockHeight });
  if (!verified.ok) {
    if (verified.depositFailed === undefined) return verified;
    const { cost } = store(su, stx, verified.depositFailed);
    const outcome: ExecutionOutcome = {
      id: stx.hash,
      logs: [],
      receiptIds: [],
      gasBurnt: cost.gasBurnt,
      tokensBurnt: cost.burntAmount,
      executorId: tx.signerId,
      status: { kind: "Failure", error: { InvalidTxError: verified.error } },
      metadataVersion: 1,
    };
    return { ok: true, receipt: undefined, burnt: cost.burntAmount, outcome };
  }
  const { cost } = store(su, stx, verified.value);
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

/** Stores what the transaction charged: the signer, its key, a gas key's nonce. */
function store(su: StateUpdate, stx: DecodedSignedTransaction, charged: ChargedTransaction): ChargedTransaction {
  const tx = stx.transaction;
  setAccount(su, tx.signerId, charged.signer);
  setAccessKey(su, tx.signerId, tx.publicKey, charged.accessKey);
  if (charged.gasKeyNonce !== undefined) {
    setGasKeyNonce(su, tx.signerId, tx.publicKey, charged.gasKeyNonce.index, charged.gasKeyNonce.nonce);
  }
  su.commit({ type: "transaction_processing", txHash: stx.hash });
  return charged;
}
