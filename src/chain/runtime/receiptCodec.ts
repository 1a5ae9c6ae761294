import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { readAction, writeAction } from "@shardkit/primitives/actionCodec";
import { TxReader } from "@shardkit/primitives/TxReader";
import { writePublicKey } from "@shardkit/primitives/writePublicKey";
import type { Receipt } from "./receipt.js";

/*
 * Borsh of a receipt stored in state (delayed queue, postponed receipts), in the layout of
 * nearcore `ReceiptV0` (core/primitives/src/receipt.rs):
 *   predecessor_id ‖ receiver_id ‖ receipt_id [32] ‖ enum {
 *     0 Action { signer_id, signer_public_key, gas_price u128,
 *                output_data_receivers Vec<{data_id [32], receiver_id}>,
 *                input_data_ids Vec<[32]>, actions Vec<Action> },
 *     1 Data { data_id [32], data Option<Vec<u8>> },
 *     2 PromiseYield (as Action), 3 PromiseResume (as Data),
 *     4 GlobalContractDistribution(enum { 1 V2 { id GlobalContractIdentifier,
 *       target_shard u64, already_delivered_shards Vec<u64>, code Vec<u8>, nonce u64 } }),
 *     5 ActionV2 { signer_id, refund_to Option<AccountId>, then as Action }, 6 PromiseYieldV2 (as ActionV2) }
 * A receipt with a refund_to (promise_set_refund_to) is written as V2, any other as before.
 * (nearcore now wraps stored receipts in further versioned envelopes; we do not.)
 */

const TAG = { Action: 0, Data: 1, PromiseYield: 2, PromiseResume: 3, GlobalContractDistribution: 4, ActionV2: 5, PromiseYieldV2: 6 } as const;
const DISTRIBUTION_V2 = 1;

export function encodeReceipt(r: Receipt): Uint8Array {
  const w = new BorshWriter().string(r.predecessorId).string(r.receiverId).fixed(r.receiptId);
  const b = r.body;
  if (b.type === "Action") {
    if (b.refundTo === undefined) w.u8(b.isPromiseYield === true ? TAG.PromiseYield : TAG.Action).string(b.signerId);
    else w.u8(b.isPromiseYield === true ? TAG.PromiseYieldV2 : TAG.ActionV2).string(b.signerId).u8(1).string(b.refundTo);
    writePublicKey(w, b.signerPublicKey);
    w.u128(b.gasPrice).u32(b.outputDataReceivers.length);
    for (const d of b.outputDataReceivers) w.fixed(d.dataId).string(d.receiverId);
    w.u32(b.inputDataIds.length);
    for (const id of b.inputDataIds) w.fixed(id);
    w.u32(b.actions.length);
    for (const a of b.actions) writeAction(w, a);
  } else if (b.type === "Data") {
    w.u8(b.isPromiseResume === true ? TAG.PromiseResume : TAG.Data).fixed(b.dataId);
    if (b.data === null) w.u8(0);
    else w.u8(1).bytes(b.data);
  } else {
    w.u8(TAG.GlobalContractDistribution).u8(DISTRIBUTION_V2);
    if (b.id.kind === "CodeHash") w.u8(0).fixed(b.id.codeHash);
    else w.u8(1).string(b.id.accountId);
    w.u64(BigInt(b.targetShard)).u32(b.alreadyDeliveredShards.length);
    for (const shard of b.alreadyDeliveredShards) w.u64(BigInt(shard));
    w.bytes(b.code).u64(b.nonce);
  }
  return w.toBytes();
}

export function decodeReceipt(bytes: Uint8Array): Receipt {
  const r = new TxReader(bytes);
  const predecessorId = r.accountId("predecessor_id");
  const receiverId = r.accountId("receiver_id");
  const receiptId = r.fixed(32, "receipt_id");
  const tag = r.u8("receipt");
  let receipt: Receipt;
  if (tag === TAG.Action || tag === TAG.PromiseYield || tag === TAG.ActionV2 || tag === TAG.PromiseYieldV2) {
    const signerId = r.accountId("signer_id");
    const v2 = tag === TAG.ActionV2 || tag === TAG.PromiseYieldV2;
    const refundTo = v2 && r.option("refund_to") ? r.accountId("refund_to") : undefined;
    const signerPublicKey = r.publicKey("signer_public_key");
    const gasPrice = r.u128("gas_price");
    const outputDataReceivers = Array.from({ length: r.vecLength("output_data_receivers", 36) }, () => ({
      dataId: r.fixed(32, "data_id"),
      receiverId: r.accountId("receiver_id"),
    }));
    const inputDataIds = Array.from({ length: r.vecLength("input_data_ids", 32) }, () => r.fixed(32, "input_data_id"));
    const actions = Array.from({ length: r.vecLength("actions", 1) }, () => readAction(r, false));
    receipt = {
      predecessorId,
      receiverId,
      receiptId,
      body: {
        type: "Action",
        signerId,
        signerPublicKey,
        gasPrice,
        outputDataReceivers,
        inputDataIds,
        actions,
        ...(tag === TAG.PromiseYield || tag === TAG.PromiseYieldV2 ? { isPromiseYield: true as const } : {}),
        ...(refundTo !== undefined ? { refundTo } : {}),
      },
    };
  } else if (tag === TAG.Data || tag === TAG.PromiseResume) {
    const dataId = r.fixed(32, "data_id");
    const data = r.option("data") ? r.bytesVec("data") : null;
    const resume = tag === TAG.PromiseResume ? { isPromiseResume: true as const } : {};
    receipt = { predecessorId, receiverId, receiptId, body: { type: "Data", dataId, data, ...resume } };
  } else if (tag === TAG.GlobalContractDistribution) {
    if (r.u8("distribution version") !== DISTRIBUTION_V2) return r.fail("unknown GlobalContractDistributionReceipt version");
    const idTag = r.u8("id");
    const id =
      idTag === 0
        ? { kind: "CodeHash" as const, codeHash: r.fixed(32, "id.code_hash") }
        : idTag === 1
          ? { kind: "AccountId" as const, accountId: r.accountId("id.account_id") }
          : r.fail(`unknown GlobalContractIdentifier tag ${idTag}`);
    const targetShard = Number(r.u64("target_shard"));
    const alreadyDeliveredShards = Array.from({ length: r.vecLength("already_delivered_shards", 8) }, () => Number(r.u64("shard")));
    const code = r.bytesVec("code");
    const nonce = r.u64("nonce");
    receipt = { predecessorId, receiverId, receiptId, body: { type: "GlobalContractDistribution", id, targetShard, alreadyDeliveredShards, code, nonce } };
  } else {
    return r.fail(`unknown receipt tag ${tag}`);
  }
  r.end("receipt");
  return receipt;
}
