import { bytesToLatin1 } from "../primitives/latin1.js";
import { sha256 } from "../primitives/sha256.js";
import type { GlobalContractDeployMode, GlobalContractIdentifier } from "../transaction/index.js";
import type { ApplyContext } from "./ApplyContext.js";
import { SYSTEM_ACCOUNT, type GlobalContractDistributionReceipt, type NewReceipt, type Receipt } from "./receipt.js";
import { receiptIdFromReceipt } from "./receiptId.js";
import { globalContractCodeKey, globalContractNonceKey } from "./runtimeTrieKeys.js";
import type { StateUpdate } from "./StateUpdate.js";

/*
 * How a global contract reaches every shard, after nearcore runtime/src/global_contracts.rs
 * (protocol 83+, GlobalContractDistributionNonce): the deploy bumps the identifier's nonce on
 * its own shard and sends a distribution receipt to that same shard; each shard that receives
 * it stores the code (unless it already holds a newer deployment) and forwards it to the
 * first shard id of the layout it has not reached. So shard after shard, one block apart.
 */

type DistributionOf = Receipt & { readonly body: GlobalContractDistributionReceipt };

function readNonce(su: StateUpdate, key: string): bigint {
  const raw = su.get(key);
  return raw === undefined ? 0n : Buffer.from(raw, "latin1").readBigUInt64LE(0);
}

function writeNonce(su: StateUpdate, key: string, nonce: bigint): void {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(nonce);
  su.set(key, bytesToLatin1(b));
}

/** nearcore `initiate_distribution`: the first distribution receipt of a deploy by `accountId`. */
export function startDistribution(
  ctx: ApplyContext,
  su: StateUpdate,
  accountId: string,
  code: Uint8Array,
  mode: GlobalContractDeployMode,
): NewReceipt {
  const id: GlobalContractIdentifier =
    mode === "CodeHash" ? { kind: "CodeHash", codeHash: sha256(code) } : { kind: "AccountId", accountId };
  const nonceKey = globalContractNonceKey(id);
  const nonce = readNonce(su, nonceKey) + 1n;
  writeNonce(su, nonceKey, nonce);
  return {
    predecessorId: accountId,
    receiverId: SYSTEM_ACCOUNT,
    body: {
      type: "GlobalContractDistribution",
      id,
      targetShard: ctx.shardLayout.shardIdOf(accountId),
      alreadyDeliveredShards: [],
      code,
      nonce,
    },
  };
}

/**
 * nearcore `apply_global_contract_distribution_receipt`: stores the code on this shard (the
 * receipt's target) unless the shard saw a later deployment of the identifier, and returns
 * the receipt that carries it on, or undefined once every shard has it.
 */
export function applyDistribution(ctx: ApplyContext, su: StateUpdate, receipt: DistributionOf): Receipt | undefined {
  const d = receipt.body;
  const nonceKey = globalContractNonceKey(d.id);
  if (d.nonce >= readNonce(su, nonceKey)) {
    writeNonce(su, nonceKey, d.nonce);
    su.set(globalContractCodeKey(d.id), bytesToLatin1(d.code));
    su.commit({ type: "receipt_processing", receiptHash: receipt.receiptId });
  }
  const delivered = new Set([...d.alreadyDeliveredShards, d.targetShard]);
  const next = ctx.shardLayout.shardIds.find((id) => !delivered.has(id));
  if (next === undefined) return undefined;
  return {
    predecessorId: receipt.predecessorId,
    receiverId: receipt.receiverId,
    receiptId: receiptIdFromReceipt(receipt.receiptId, ctx.blockHeight, 0),
    body: { ...d, targetShard: next, alreadyDeliveredShards: [...delivered].sort((a, b) => a - b) },
  };
}

export function isDistribution(r: Receipt): r is DistributionOf {
  return r.body.type === "GlobalContractDistribution";
}
