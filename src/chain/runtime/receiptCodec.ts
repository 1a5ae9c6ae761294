import { BorshWriter } from "../primitives/borshWriter.js";
import { readAction, writeAction } from "../transaction/actionCodec.js";
import { TxReader } from "../transaction/TxReader.js";
import { writePublicKey } from "../transaction/writePublicKey.js";
import type { Receipt } from "./receipt.js";

/*
 * Borsh of a receipt stored in state (delayed queue, postponed receipts), in the layout of
 * nearcore `ReceiptV0` (core/primitives/src/receipt.rs):
 *   predecessor_id ‖ receiver_id ‖ receipt_id [32] ‖ enum {
 *     0 Action { signer_id, signer_public_key, gas_price u128,
 *                output_data_receivers Vec<{data_id [32], receiver_id}>,
 *                input_data_ids Vec<[32]>, actions Vec<Action> },
 *     1 Data { data_id [32], data Option<Vec<u8>> } }
 * (nearcore now wraps stored receipts in further versioned envelopes; we do not.)
 */

export function encodeReceipt(r: Receipt): Uint8Array {
  const w = new BorshWriter().string(r.predecessorId).string(r.receiverId).fixed(r.receiptId);
  const b = r.body;
  if (b.type === "Action") {
    w.u8(0).string(b.signerId);
    writePublicKey(w, b.signerPublicKey);
    w.u128(b.gasPrice).u32(b.outputDataReceivers.length);
    for (const d of b.outputDataReceivers) w.fixed(d.dataId).string(d.receiverId);
    w.u32(b.inputDataIds.length);
    for (const id of b.inputDataIds) w.fixed(id);
    w.u32(b.actions.length);
    for (const a of b.actions) writeAction(w, a);
  } else {
    w.u8(1).fixed(b.dataId);
    if (b.data === null) w.u8(0);
    else w.u8(1).bytes(b.data);
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
  if (tag === 0) {
    const signerId = r.accountId("signer_id");
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
      body: { type: "Action", signerId, signerPublicKey, gasPrice, outputDataReceivers, inputDataIds, actions },
    };
  } else if (tag === 1) {
    const dataId = r.fixed(32, "data_id");
    const data = r.option("data") ? r.bytesVec("data") : null;
    receipt = { predecessorId, receiverId, receiptId, body: { type: "Data", dataId, data } };
  } else {
    return r.fail(`unknown receipt tag ${tag}`);
  }
  r.end("receipt");
  return receipt;
}
