import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { delegateActionHash, verifySignature, type SignedDelegateAction } from "../../transaction/index.js";
import { totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from "../actionFees.js";
import type { ActionResult } from "../ActionResult.js";
import { functionCallPermissionOf } from "@shardkit/primitives/accessKey";
import { getAccessKey, setAccessKey } from "../stateAccess.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `apply_delegate_action` (NEP-366 meta transactions), executed on the
 * sender's shard: the signature over the NEP-461 hash, expiry (block height >
 * max_block_height), sender = this receipt's receiver, then the sender's key (exists, nonce,
 * nonce upper bound, function-call rules) whose nonce is consumed. The inner actions become a
 * receipt from the sender to the delegate's receiver, paid by the relayer: the relayer stays
 * the signer (gas refunds go to it), the sender becomes the predecessor (deposit refunds go
 * to it). The inner send fees are burnt now; the inner execution is reserved as used gas.
 */
export function delegate(env: ActionEnv, action: SignedDelegateAction, result: ActionResult): void {
  const d = action.delegateAction;
  const p = env.ctx.params;
  if (!verifySignature(delegateActionHash(d), action.signature, d.publicKey)) {
    result.fail("DelegateActionInvalidSignature");
    return;
  }
  if (BigInt(env.ctx.blockHeight) > d.maxBlockHeight) {
    result.fail("DelegateActionExpired");
    return;
  }
  if (d.senderId !== env.accountId) {
    result.fail({ DelegateActionSenderDoesNotMatchTxReceiver: { sender_id: d.senderId, receiver_id: env.accountId } });
    return;
  }
  const key = getAccessKey(env.su, d.senderId, d.publicKey);
  if (key === undefined) {
    result.fail({
      DelegateActionAccessKeyError: { AccessKeyNotFound: { account_id: d.senderId, public_key: formatPublicKey(d.publicKey) } },
    });
    return;
  }
  if (d.nonce <= key.nonce) {
    result.fail({ DelegateActionInvalidNonce: { delegate_nonce: Number(d.nonce), ak_nonce: Number(key.nonce) } });
    return;
  }
  const upperBound = BigInt(env.ctx.blockHeight) * p.accessKeyNonceRangeMultiplier;
  if (d.nonce >= upperBound) {
    result.fail({ DelegateActionNonceTooLarge: { delegate_nonce: Number(d.nonce), upper_bound: Number(upperBound) } });
    return;
  }
  const fc = functionCallPermissionOf(key.permission);
  if (fc !== undefined) {
    const first = d.actions[0];
    if (d.actions.length !== 1 || first === undefined || first.type !== "FunctionCall") {
      result.fail({ DelegateActionAccessKeyError: "RequiresFullAccess" });
      return;
    }
    // nearcore records DepositWithFunctionCall but goes on checking (a later error wins).
    if (first.deposit > 0n) result.fail({ DelegateActionAccessKeyError: "DepositWithFunctionCall" });
    if (d.receiverId !== fc.receiverId) {
      result.fail({ DelegateActionAccessKeyError: { ReceiverMismatch: { tx_receiver: d.receiverId, ak_receiver: fc.receiverId } } });
      return;
    }
    if (fc.methodNames.length > 0 && !fc.methodNames.includes(first.methodName)) {
      result.fail({ DelegateActionAccessKeyError: { MethodNameMismatch: { method_name: first.methodName } } });
      return;
    }
    if (!result.ok) return;
  }
  setAccessKey(env.su, d.senderId, d.publicKey, { ...key, nonce: d.nonce });

  const body = env.receipt.body;
  result.newReceipts.push({
    predecessorId: d.senderId,
    receiverId: d.receiverId,
    body: {
      type: "Action",
      signerId: body.signerId,
      signerPublicKey: body.signerPublicKey,
      gasPrice: body.gasPrice,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: d.actions,
    },
  });
  const prepaidSendFees = totalPrepaidSendFees(p, body.actions);
  const requiredGas =
    totalPrepaidExecFees(p, d.actions, d.receiverId) + totalPrepaidGas(d.actions) + p.fees.actionReceiptCreation.execution;
  result.gasUsed += requiredGas + prepaidSendFees;
  result.gasBurnt += prepaidSendFees;
}
