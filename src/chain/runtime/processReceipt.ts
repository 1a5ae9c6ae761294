import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import { applyActionReceipt, type ReceiptExecution } from "./applyActionReceipt.js";
import type { ApplyContext } from "./ApplyContext.js";
import { isActionReceipt, type ActionReceiptOf, type Receipt } from "./receipt.js";
import { decodeReceipt, encodeReceipt } from "./receiptCodec.js";
import {
  PROMISE_YIELD_STATUS,
  dataIdToYieldIdKey,
  pendingDataCountKey,
  postponedReceiptIdKey,
  postponedReceiptKey,
  promiseYieldReceiptKey,
  promiseYieldStatusKey,
  receivedDataKey,
  yieldIdToDataIdKey,
} from "./runtimeTrieKeys.js";
import type { StateUpdate } from "./StateUpdate.js";
import { at } from "../must.js";
import { InvariantError } from "../must.js";

const u32le = (n: number): string => bytesToLatin1(new BorshWriter().u32(n).toBytes());
const readU32le = (s: string): number => Buffer.from(s, "latin1").readUInt32LE(0);

/**
 * nearcore lib.rs `process_receipt`: a data receipt is stored as received data and, when it
 * was the last input a postponed action receipt waited for, that receipt runs now; an action
 * receipt runs at once when all its input data has arrived, else it is postponed in state
 * (receipt, pending count, and one "who waits for this data id" record per missing input).
 * Returns the execution when an action receipt ran.
 */
export function processReceipt(ctx: ApplyContext, su: StateUpdate, receipt: Receipt): ReceiptExecution | undefined {
  const receiverId = receipt.receiverId;
  if (!isActionReceipt(receipt)) {
    const body = receipt.body;
    // Global contract distributions are applied by globalContractDistribution.ts, never here.
    if (body.type !== "Data") throw new InvariantError(`a ${body.type} receipt reached processReceipt`);
    if (body.isPromiseResume === true) return processPromiseResume(ctx, su, receipt, body);
    const data = body.data === null ? new BorshWriter().u8(0) : new BorshWriter().u8(1).bytes(body.data);
    su.set(receivedDataKey(receiverId, body.dataId), bytesToLatin1(data.toBytes()));
    const waitingKey = postponedReceiptIdKey(receiverId, body.dataId);
    const waiting = su.get(waitingKey);
    if (waiting !== undefined) {
      su.remove(waitingKey);
      const receiptId = latin1ToBytes(waiting);
      const countKey = pendingDataCountKey(receiverId, receiptId);
      const count = su.get(countKey);
      if (count === undefined) throw new Error("pending data count should be in the state");
      if (readU32le(count) === 1) {
        su.remove(countKey);
        const receiptKey = postponedReceiptKey(receiverId, receiptId);
        const stored = su.get(receiptKey);
        if (stored === undefined) throw new Error("pending receipt should be in the state");
        su.remove(receiptKey);
        return applyActionReceipt(ctx, su, decodePostponed(stored));
      }
      su.set(countKey, u32le(readU32le(count) - 1));
    }
    // Nothing ran: nearcore labels the stored data (and the waiting receipt's bookkeeping) so.
    su.commit({ type: "postponed_receipt", receiptHash: receipt.receiptId });
    return undefined;
  }
  if (receipt.body.isPromiseYield === true) {
    // Stored until its data comes (nearcore: instant, right after the receipt that made it).
    su.set(promiseYieldReceiptKey(receiverId, at(receipt.body.inputDataIds, 0)), bytesToLatin1(encodeReceipt(receipt)));
    su.commit({ type: "postponed_receipt", receiptHash: receipt.receiptId });
    return undefined;
  }
  let pending = 0;
  for (const dataId of receipt.body.inputDataIds) {
    if (!su.has(receivedDataKey(receiverId, dataId))) {
      pending++;
      su.set(postponedReceiptIdKey(receiverId, dataId), bytesToLatin1(receipt.receiptId));
    }
  }
  if (pending === 0) return applyActionReceipt(ctx, su, receipt);
  su.set(pendingDataCountKey(receiverId, receipt.receiptId), u32le(pending));
  su.set(postponedReceiptKey(receiverId, receipt.receiptId), bytesToLatin1(encodeReceipt(receipt)));
  su.commit({ type: "postponed_receipt", receiptHash: receipt.receiptId });
  return undefined;
}

/**
 * nearcore lib.rs `process_receipt`, PromiseResume: the yielded receipt, if still stored, takes
 * the data (none after a timeout: PromiseResult Failed) and runs now; its status goes, and so
 * does its yield id when promise_yield_create_with_id made it (the id may then be used again).
 * A timeout that finds a resume already initiated, and any resume after the first, do nothing.
 */
function processPromiseResume(
  ctx: ApplyContext,
  su: StateUpdate,
  receipt: Receipt,
  body: Extract<Receipt["body"], { type: "Data" }>,
): ReceiptExecution | undefined {
  const receiverId = receipt.receiverId;
  const statusKey = promiseYieldStatusKey(receiverId, body.dataId);
  const yieldKey = promiseYieldReceiptKey(receiverId, body.dataId);
  const timedOutButResumed = body.data === null && su.get(statusKey) === PROMISE_YIELD_STATUS.ResumeInitiated;
  const stored = timedOutButResumed ? undefined : su.get(yieldKey);
  if (stored === undefined) {
    su.commit({ type: "postponed_receipt", receiptHash: receipt.receiptId });
    return undefined;
  }
  su.remove(yieldKey);
  su.remove(statusKey);
  const toYieldIdKey = dataIdToYieldIdKey(receiverId, body.dataId);
  const yieldId = su.get(toYieldIdKey);
  if (yieldId !== undefined) {
    su.remove(yieldIdToDataIdKey(receiverId, latin1ToBytes(yieldId)));
    su.remove(toYieldIdKey);
  }
  const data = body.data === null ? new BorshWriter().u8(0) : new BorshWriter().u8(1).bytes(body.data);
  su.set(receivedDataKey(receiverId, body.dataId), bytesToLatin1(data.toBytes()));
  return applyActionReceipt(ctx, su, decodePostponed(stored));
}

/** A postponed receipt as stored in the state: always an action receipt (data receipts are never postponed). */
function decodePostponed(stored: string): ActionReceiptOf {
  const receipt = decodeReceipt(latin1ToBytes(stored));
  if (!isActionReceipt(receipt)) throw new InvariantError(`the postponed receipt stored in the state is a ${receipt.body.type} receipt`);
  return receipt;
}
