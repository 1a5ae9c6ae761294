import { functionCallPermissionOf, gasKeyInfoOf, withGasKeyBalance, type AccessKey } from "@shardkit/primitives/accessKey";
import type { Account } from "../primitives/account.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { Transaction } from "../transaction/index.js";
import type { InvalidTxErrorJson } from "./invalidTxError.js";
import type { RuntimeParameters } from "./parameters.js";
import { getAccessKey, getAccount, getGasKeyNonce } from "./stateAccess.js";
import type { StateUpdate } from "./StateUpdate.js";
import { lackingStorageStake } from "./storageStake.js";
import { CostOverflowError, transactionCost, type TransactionCost } from "./transactionCost.js";

export interface ChargedTransaction {
  readonly cost: TransactionCost;
  /** The signer after paying the total cost (a gas-key transaction: after paying its deposits). */
  readonly signer: Account;
  /** The access key with the transaction's nonce (and a reduced allowance), or the gas key with its new balance. */
  readonly accessKey: AccessKey;
  /** A gas-key transaction: the nonce index it used and the nonce that index now holds. */
  readonly gasKeyNonce?: { readonly index: number; readonly nonce: bigint };
}

/**
 * `depositFailed` (nearcore `TxVerdict::DepositFailed`): a gas-key transaction whose key pays
 * its gas but whose account cannot pay its deposits. It is refused at admission; a chunk
 * includes it, charging only the gas burnt on conversion to the key and moving its nonce.
 */
export type VerifyResult =
  | { ok: true; value: ChargedTransaction }
  | { ok: false; error: InvalidTxErrorJson; depositFailed?: ChargedTransaction };

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
  if (nonceIndex !== undefined) return verifyGasKeyTransaction(p, su, tx, signer, key, cost, nonce, nonceIndex, options);
  // A gas key signs only with a nonce index (verifier.rs `verify_and_charge_tx_ephemeral`).
  const info = gasKeyInfoOf(key.permission);
  if (info !== undefined) return fail({ InvalidNonceIndex: { tx_nonce_index: null, num_nonces: info.numNonces } });
  const nonceError = checkNonce(p, tx, nonce, key.nonce, options);
  if (nonceError !== undefined) return fail(nonceError);
  const balance = signer.amount;
  if (balance < cost.totalCost) {
    return fail({ NotEnoughBalance: { signer_id: signerId, balance: balance.toString(), cost: cost.totalCost.toString() } });
  }
  let permission = key.permission;
  if (permission !== "FullAccess" && "FunctionCall" in permission && permission.FunctionCall.allowance !== null) {
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
  const permissionError = checkFunctionCallPermission(tx, key);
  if (permissionError !== undefined) return fail(permissionError);
  return {
    ok: true,
    value: { cost, signer: { ...signer, amount: newAmount }, accessKey: { nonce, permission } },
  };
}

/** nearcore verifier.rs `verify_nonce`: above the key's nonce (exactly one above in strict mode), below height × 10^6. */
function checkNonce(p: RuntimeParameters, tx: Transaction, nonce: bigint, akNonce: bigint, options: VerifyOptions): InvalidTxErrorJson | undefined {
  const strict = tx.version === 1 && tx.nonceMode === "Strict";
  if (strict ? nonce !== akNonce + 1n : nonce <= akNonce) {
    return { InvalidNonce: { tx_nonce: Number(nonce), ak_nonce: Number(akNonce) } };
  }
  if (options.blockHeight !== undefined) {
    const upperBound = BigInt(options.blockHeight) * p.accessKeyNonceRangeMultiplier;
    if (nonce >= upperBound) return { NonceTooLarge: { tx_nonce: Number(nonce), upper_bound: Number(upperBound) } };
  }
  return undefined;
}

/** nearcore `verify_function_call_permission`, for function-call keys and function-call gas keys. */
function checkFunctionCallPermission(tx: Transaction, key: AccessKey): InvalidTxErrorJson | undefined {
  const fc = functionCallPermissionOf(key.permission);
  if (fc === undefined) return undefined;
  const first = tx.actions[0];
  if (tx.actions.length !== 1 || first === undefined || first.type !== "FunctionCall") {
    return { InvalidAccessKeyError: "RequiresFullAccess" };
  }
  if (first.deposit > 0n) return { InvalidAccessKeyError: "DepositWithFunctionCall" };
  if (tx.receiverId !== fc.receiverId) {
    return { InvalidAccessKeyError: { ReceiverMismatch: { tx_receiver: tx.receiverId, ak_receiver: fc.receiverId } } };
  }
  if (fc.methodNames.length > 0 && !fc.methodNames.includes(first.methodName)) {
    return { InvalidAccessKeyError: { MethodNameMismatch: { method_name: first.methodName } } };
  }
  return undefined;
}

/**
 * nearcore verifier.rs `verify_and_charge_gas_key_tx_ephemeral` (NEP-611): the key must be a
 * gas key, the index one of its nonces, the nonce above that index's; the gas (burnt and
 * bought) comes from the key's balance, the deposits from the account. A key that pays the
 * gas but an account that cannot pay the deposits is `depositFailed`.
 */
function verifyGasKeyTransaction(
  p: RuntimeParameters,
  su: StateUpdate,
  tx: Transaction,
  signer: Account,
  key: AccessKey,
  cost: TransactionCost,
  nonce: bigint,
  nonceIndex: number,
  options: VerifyOptions,
): VerifyResult {
  const signerId = tx.signerId;
  const info = gasKeyInfoOf(key.permission);
  // The chain looks the index's nonce up first: a plain key has none (num_nonces 0).
  const current = getGasKeyNonce(su, signerId, tx.publicKey, nonceIndex);
  if (current === undefined || (info !== undefined && nonceIndex >= info.numNonces)) {
    return fail({ InvalidNonceIndex: { tx_nonce_index: nonceIndex, num_nonces: info?.numNonces ?? 0 } });
  }
  if (info === undefined) {
    return fail({
      InvalidAccessKeyError: { AccessKeyNotFound: { account_id: signerId, public_key: formatPublicKey(tx.publicKey) } },
    });
  }
  const nonceError = checkNonce(p, tx, nonce, current, options);
  if (nonceError !== undefined) return fail(nonceError);
  const gasCost = cost.totalCost - cost.depositCost;
  if (info.balance < gasCost) {
    return fail({ NotEnoughGasKeyBalance: { signer_id: signerId, balance: info.balance.toString(), cost: gasCost.toString() } });
  }
  if (info.balance < cost.burntAmount) {
    return fail({ NotEnoughGasKeyBalance: { signer_id: signerId, balance: info.balance.toString(), cost: cost.burntAmount.toString() } });
  }
  const permissionError = checkFunctionCallPermission(tx, key);
  if (permissionError !== undefined) return fail(permissionError);
  const charged = (amount: bigint, keyBalance: bigint): ChargedTransaction => ({
    cost,
    signer: { ...signer, amount },
    accessKey: { nonce: key.nonce, permission: withGasKeyBalance(key.permission, keyBalance) },
    gasKeyNonce: { index: nonceIndex, nonce },
  });
  const depositFailed = charged(signer.amount, info.balance - cost.burntAmount);
  const reason = (error: InvalidTxErrorJson): VerifyResult => ({ ok: false, error, depositFailed });
  if (signer.amount < cost.depositCost) {
    return reason({
      NotEnoughBalanceForDeposit: {
        signer_id: signerId,
        balance: signer.amount.toString(),
        cost: cost.depositCost.toString(),
        reason: "NotEnoughBalance",
      },
    });
  }
  const newAmount = signer.amount - cost.depositCost;
  const lacking = lackingStorageStake(p, signer, newAmount);
  if (lacking !== undefined) {
    return reason({
      NotEnoughBalanceForDeposit: {
        signer_id: signerId,
        balance: newAmount.toString(),
        cost: lacking.toString(),
        reason: "LackBalanceForState",
      },
    });
  }
  return { ok: true, value: charged(newAmount, info.balance - gasCost) };
}
