import type { AccessKey } from "@shardkit/primitives/accessKey";
import type { Account } from "../primitives/account.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { Transaction } from "../transaction/index.js";
import type { InvalidTxErrorJson } from "./invalidTxError.js";
import type { RuntimeParameters } from "./parameters.js";
import { getAccessKey, getAccount } from "./stateAccess.js";
import type { StateUpdate } from "./StateUpdate.js";
import { lackingStorageStake } from "./storageStake.js";
import { CostOverflowError, transactionCost, type TransactionCost } from "./transactionCost.js";

export interface ChargedTransaction {
  readonly cost: TransactionCost;
  /** The signer after paying the total cost. */
  readonly signer: Account;
  /** The access key with the transaction's nonce (and a reduced allowance). */
  readonly accessKey: AccessKey;
}

export type VerifyResult = { ok: true; value: ChargedTransaction } | { ok: false; error: InvalidTxErrorJson };

export interface VerifyOptions {
  /** Height of the block the transaction goes into, for NonceTooLarge; undefined skips the check. */
  readonly blockHeight: number | undefined;
}

/** The plain nonce of a transaction, or the gas-key nonce index it asks for. */
function nonceOf(tx: Transaction): { nonce: bigint; nonceIndex?: number } {
  if (tx.version === 0) return { nonce: tx.nonce };
  return tx.nonce.kind === "Nonce" ? { nonce: tx.nonce.nonce } : { nonce: tx.nonce.nonce, nonceIndex: tx.nonce.nonceIndex };
}

const fail = (error: InvalidTxErrorJson): VerifyResult => ({ ok: false, error });

/**
 * The state-dependent checks and the charge, in nearcore's order (chain runtime
 * `can_verify_and_charge_tx` → config.rs `tx_cost`, verifier.rs `get_signer_and_access_key`,
 * `verify_and_charge_tx_ephemeral`): cost overflow, signer, access key, nonce, nonce upper
 * bound, balance, allowance, storage stake, then the function-call key rules. Reads `su`;
 * writes nothing (the caller stores `signer` and `accessKey`).
 */
export function verifyAndChargeTransaction(
  p: RuntimeParameters,
  su: StateUpdate,
  tx: Transaction,
  gasPrice: bigint,
  options: VerifyOptions,
): VerifyResult {
  let cost: TransactionCost;
  try {
    cost = transactionCost(p, tx.signerId, tx.receiverId, tx.actions, gasPrice, tx.publicKey);
  } catch (e) {
    if (e instanceof CostOverflowError) return fail("CostOverflow");
    throw e;
  }
  const signerId = tx.signerId;
  const signer = getAccount(su, signerId);
  if (signer === undefined) return fail({ SignerDoesNotExist: { signer_id: signerId } });
  const key = getAccessKey(su, signerId, tx.publicKey);
  if (key === undefined) {
    return fail({
      InvalidAccessKeyError: { AccessKeyNotFound: { account_id: signerId, public_key: formatPublicKey(tx.publicKey) } },
    });
  }
  const { nonce, nonceIndex } = nonceOf(tx);
  // Plain access keys have no nonce slots: nearcore answers a gas-key nonce with InvalidNonceIndex.
  if (nonceIndex !== undefined) return fail({ InvalidNonceIndex: { tx_nonce_index: nonceIndex, num_nonces: 0 } });
  const akNonce = key.nonce;
  const strict = tx.version === 1 && tx.nonceMode === "Strict";
  if (strict ? nonce !== akNonce + 1n : nonce <= akNonce) {
    return fail({ InvalidNonce: { tx_nonce: Number(nonce), ak_nonce: Number(akNonce) } });
  }
  if (options.blockHeight !== undefined) {
    const upperBound = BigInt(options.blockHeight) * p.accessKeyNonceRangeMultiplier;
    if (nonce >= upperBound) return fail({ NonceTooLarge: { tx_nonce: Number(nonce), upper_bound: Number(upperBound) } });
  }
  const balance = signer.amount;
  if (balance < cost.totalCost) {
    return fail({ NotEnoughBalance: { signer_id: signerId, balance: balance.toString(), cost: cost.totalCost.toString() } });
  }
  let permission = key.permission;
  if (permission !== "FullAccess" && permission.FunctionCall.allowance !== null) {
    const allowance = permission.FunctionCall.allowance;
    if (allowance < cost.totalCost) {
      return fail({
        InvalidAccessKeyError: {
          NotEnoughAllowance: {
            account_id: signerId,
            public_key: formatPublicKey(tx.publicKey),
            allowance: allowance.toString(),
            cost: cost.totalCost.toString(),
          },
        },
      });
    }
    permission = { FunctionCall: { ...permission.FunctionCall, allowance: allowance - cost.totalCost } };
  }
  const newAmount = balance - cost.totalCost;
  const lacking = lackingStorageStake(p, signer, newAmount);
  if (lacking !== undefined) return fail({ LackBalanceForState: { signer_id: signerId, amount: lacking.toString() } });

  if (permission !== "FullAccess") {
    const fc = permission.FunctionCall;
    const first = tx.actions[0];
    if (tx.actions.length !== 1 || first === undefined || first.type !== "FunctionCall") {
      return fail({ InvalidAccessKeyError: "RequiresFullAccess" });
    }
    if (first.deposit > 0n) return fail({ InvalidAccessKeyError: "DepositWithFunctionCall" });
    if (tx.receiverId !== fc.receiverId) {
      return fail({ InvalidAccessKeyError: { ReceiverMismatch: { tx_receiver: tx.receiverId, ak_receiver: fc.receiverId } } });
    }
    if (fc.methodNames.length > 0 && !fc.methodNames.includes(first.methodName)) {
      return fail({ InvalidAccessKeyError: { MethodNameMismatch: { method_name: first.methodName } } });
    }
  }
  return {
    ok: true,
    value: { cost, signer: { ...signer, amount: newAmount }, accessKey: { nonce, permission } },
  };
}
