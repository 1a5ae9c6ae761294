import { ZERO_HASH } from "../../primitives/cryptoHash.js";
import type { TransferAction } from "../../transaction/index.js";
import { accessKeyStorageUsage } from "../../genesis/storageUsage.js";
import { newEthImplicitAccount } from "../ethImplicitAccount.js";
import { isEthImplicitAccount, isNearDeterministicAccount, nearImplicitPublicKey } from "../implicitAccount.js";
import { SYSTEM_ACCOUNT } from "../receipt.js";
import { gasKeyInfoOf, withGasKeyBalance } from "@shardkit/primitives/accessKey";
import { getFunctionCallAccessKey, setAccessKey } from "../stateAccess.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore `action_transfer_or_implicit_account_creation`: credits the receiver; a gas refund
 * (from system, signed "by" the receiver) goes to the gas key that paid, if it was one (and is
 * still there), else to the account, topping up the allowance of the function-call key that paid; a Transfer to a missing NEAR-implicit id creates it with the full-access key the
 * id names, nonce (height − 1) × 10^6; one to a missing ETH-implicit id creates it with the
 * ETH wallet contract as a global contract and no key; to a missing NEAR-deterministic id,
 * without a key or contract (nearcore `create_deterministic_account`: the actor stays the
 * predecessor).
 */
export function transfer(env: ActionEnv, action: TransferAction): void {
  const p = env.ctx.params;
  const body = env.receipt.body;
  if (env.account !== undefined) {
    const isGasRefund = env.receipt.predecessorId === SYSTEM_ACCOUNT && body.signerId === env.accountId;
    if (isGasRefund && refundGasKeyBalance(env, action.deposit)) return;
    env.account = { ...env.account, amount: env.account.amount + action.deposit };
    if (isGasRefund) refundAllowance(env, action.deposit);
    return;
  }
  if (isNearDeterministicAccount(env.accountId)) {
    env.account = { amount: action.deposit, locked: 0n, codeHash: ZERO_HASH, storageUsage: p.storageNumBytesAccount };
    return;
  }
  env.actorId = env.accountId;
  if (isEthImplicitAccount(env.accountId)) {
    env.account = newEthImplicitAccount(env.ctx.chainId, action.deposit, p.storageNumBytesAccount);
    return;
  }
  const publicKey = nearImplicitPublicKey(env.accountId);
  const accessKey = {
    nonce: BigInt(env.ctx.blockHeight - 1) * p.accessKeyNonceRangeMultiplier,
    permission: "FullAccess" as const,
  };
  env.account = {
    amount: action.deposit,
    locked: 0n,
    codeHash: ZERO_HASH,
    storageUsage: p.storageNumBytesAccount + accessKeyStorageUsage(publicKey, accessKey),
  };
  setAccessKey(env.su, env.accountId, publicKey, accessKey);
}

/** nearcore `try_refund_gas_key_balance`: a gas refund of a gas-key transaction goes back to the key. */
function refundGasKeyBalance(env: ActionEnv, amount: bigint): boolean {
  const publicKey = env.receipt.body.signerPublicKey;
  const key = getFunctionCallAccessKey(env.su, env.accountId, publicKey);
  const info = key === undefined ? undefined : gasKeyInfoOf(key.permission);
  if (key === undefined || info === undefined) return false;
  setAccessKey(env.su, env.accountId, publicKey, { ...key, permission: withGasKeyBalance(key.permission, info.balance + amount) });
  return true;
}

/** nearcore `try_refund_allowance`: best effort, only for a key that still has a finite allowance. */
function refundAllowance(env: ActionEnv, amount: bigint): void {
  const publicKey = env.receipt.body.signerPublicKey;
  const key = getFunctionCallAccessKey(env.su, env.accountId, publicKey);
  if (key === undefined || key.permission === "FullAccess" || !("FunctionCall" in key.permission)) return;
  const fc = key.permission.FunctionCall;
  if (fc.allowance === null || amount === 0n) return;
  setAccessKey(env.su, env.accountId, publicKey, { ...key, permission: { FunctionCall: { ...fc, allowance: fc.allowance + amount } } });
}
