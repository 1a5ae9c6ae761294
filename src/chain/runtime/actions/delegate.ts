import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { functionCallPermissionOf, gasKeyInfoOf } from "@shardkit/primitives/accessKey";
import { verifySignature, type Action } from "../../transaction/index.js";
import { totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from "../actionFees.js";
import type { ActionResult } from "../ActionResult.js";
import { delegateBodyOf, type DelegateBody } from "../delegateBody.js";
import { getAccessKey, getGasKeyNonce, setAccessKey, setGasKeyNonce } from "../stateAccess.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `apply_delegate_action` (NEP-366 meta transactions, and NEP-611's
 * DelegateV2 whose nonce may be a gas key's), executed on the sender's shard: the signature
 * over the NEP-461 hash, expiry (block height > max_block_height), sender = this receipt's
 * receiver, then the sender's key (`validate_delegate_action_key`) whose nonce is consumed.
 * The inner actions become a receipt from the sender to the delegate's receiver, paid by the
 * relayer: the relayer stays the signer (gas refunds go to it), the sender becomes the
 * predecessor (deposit refunds go to it). The inner send fees are burnt now; the inner
 * execution is reserved as used gas.
 */
export function delegate(env: ActionEnv, action: Extract<Action, { type: "Delegate" | "DelegateV2" }>, result: ActionResult): void {
  const d = delegateBodyOf(action);
  const p = env.ctx.params;
  if (!verifySignature(d.signedHash(), d.signature, d.publicKey)) {
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
  if (!consumeDelegateNonce(env, d, result)) return;

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

/**
 * nearcore `validate_delegate_action_key`: the key exists; a plain nonce needs a key that is
 * not a gas key and is checked against the key's nonce, a gas-key nonce needs a gas key and
 * is checked against the named nonce slot; nonce above the current one and below height × 10^6;
 * a function-call key allows one FunctionCall without deposit to its receiver and methods
 * (FixDelegateActionDepositWithFunctionCallError, protocol 85: the deposit error ends the
 * check). Only then is the nonce written.
 */
function consumeDelegateNonce(env: ActionEnv, d: DelegateBody, result: ActionResult): boolean {
  const key = getAccessKey(env.su, d.senderId, d.publicKey);
  if (key === undefined) {
    result.fail({
      DelegateActionAccessKeyError: { AccessKeyNotFound: { account_id: d.senderId, public_key: formatPublicKey(d.publicKey) } },
    });
    return false;
  }
  const gasKey = gasKeyInfoOf(key.permission);
  let current: bigint;
  if (d.nonce.kind === "Nonce") {
    if (gasKey !== undefined) {
      result.fail({ DelegateActionAccessKeyError: "DelegateActionRequiresNonGasKey" });
      return false;
    }
    current = key.nonce;
  } else {
    if (gasKey === undefined) {
      result.fail({ DelegateActionAccessKeyError: "DelegateActionRequiresGasKey" });
      return false;
    }
    const index = d.nonce.nonceIndex;
    if (index >= gasKey.numNonces) {
      result.fail({ DelegateActionInvalidNonceIndex: { nonce_index: index, num_nonces: gasKey.numNonces } });
      return false;
    }
    const slot = getGasKeyNonce(env.su, d.senderId, d.publicKey, index);
    // Gas keys write every nonce slot when added; a missing one is corrupt state.
    if (slot === undefined) throw new Error(`gas key nonce ${index} of ${d.senderId} is missing`);
    current = slot;
  }
  const nonce = d.nonce.nonce;
  if (nonce <= current) {
    result.fail({ DelegateActionInvalidNonce: { delegate_nonce: Number(nonce), ak_nonce: Number(current) } });
    return false;
  }
  const upperBound = BigInt(env.ctx.blockHeight) * env.ctx.params.accessKeyNonceRangeMultiplier;
  if (nonce >= upperBound) {
    result.fail({ DelegateActionNonceTooLarge: { delegate_nonce: Number(nonce), upper_bound: Number(upperBound) } });
    return false;
  }
  const fc = functionCallPermissionOf(key.permission);
  if (fc !== undefined) {
    const first = d.actions[0];
    if (d.actions.length !== 1 || first === undefined || first.type !== "FunctionCall") {
      result.fail({ DelegateActionAccessKeyError: "RequiresFullAccess" });
      return false;
    }
    if (first.deposit > 0n) {
      result.fail({ DelegateActionAccessKeyError: "DepositWithFunctionCall" });
      return false;
    }
    if (d.receiverId !== fc.receiverId) {
      result.fail({ DelegateActionAccessKeyError: { ReceiverMismatch: { tx_receiver: d.receiverId, ak_receiver: fc.receiverId } } });
      return false;
    }
    if (fc.methodNames.length > 0 && !fc.methodNames.includes(first.methodName)) {
      result.fail({ DelegateActionAccessKeyError: { MethodNameMismatch: { method_name: first.methodName } } });
      return false;
    }
  }
  if (d.nonce.kind === "Nonce") setAccessKey(env.su, d.senderId, d.publicKey, { ...key, nonce });
  else setGasKeyNonce(env.su, d.senderId, d.publicKey, d.nonce.nonceIndex, nonce);
  return true;
}
