import { sha256 } from "../primitives/sha256.js";
import { U64_MAX } from "../primitives/integerLimits.js";

/*
 * Deterministic ids, as nearcore core/primitives/src/utils.rs `create_hash_upgradable` does
 * them since ProtocolFeature::BlockHeightForReceiptId:
 *   id = sha256(base ‖ u64_le(block_height) ‖ u64_le(salt))
 * where block_height is the height of the block whose chunk creates the id, and
 *  - a transaction's receipt: base = tx hash, salt = 0;
 *  - the i-th receipt created by executing a receipt (refunds, data receipts, a delegate's
 *    inner receipt, the beneficiary transfer of DeleteAccount): base = receipt id, salt = i;
 *  - the hash of the i-th action of a receipt: base = receipt id, salt = u64::MAX − i;
 *  - a data id (promises): base = action hash, salt = data receiver index.
 */

function derive(base: Uint8Array, blockHeight: number, salt: bigint): Uint8Array {
  const buf = Buffer.alloc(base.length + 16);
  buf.set(base, 0);
  buf.writeBigUInt64LE(BigInt(blockHeight), base.length);
  buf.writeBigUInt64LE(salt, base.length + 8);
  return sha256(buf);
}

export function receiptIdFromTransaction(txHash: Uint8Array, blockHeight: number): Uint8Array {
  return derive(txHash, blockHeight, 0n);
}

export function receiptIdFromReceipt(receiptId: Uint8Array, blockHeight: number, index: number): Uint8Array {
  return derive(receiptId, blockHeight, BigInt(index));
}

export function actionHash(receiptId: Uint8Array, blockHeight: number, actionIndex: number): Uint8Array {
  return derive(receiptId, blockHeight, U64_MAX - BigInt(actionIndex));
}

export function dataId(actionHashBytes: Uint8Array, blockHeight: number, dataIndex: number): Uint8Array {
  return derive(actionHashBytes, blockHeight, BigInt(dataIndex));
}
