import { BorshReader } from "@shardkit/primitives/borshReader";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import type { Receipt } from "./receipt.js";
import { decodeReceipt } from "./receiptCodec.js";
import { receiptIdFromReceipt } from "./receiptId.js";
import { PROMISE_YIELD_INDICES_KEY, promiseYieldReceiptKey, promiseYieldTimeoutKey } from "./runtimeTrieKeys.js";
import type { StateUpdate } from "./StateUpdate.js";

/** A timed-out yield's PromiseResume receipt and the yielded receipt it resolves. */
export interface YieldTimeout {
  readonly resume: Receipt;
  readonly yieldReceiptId: Uint8Array;
}

function loadIndices(su: StateUpdate): [bigint, bigint] {
  const raw = su.get(PROMISE_YIELD_INDICES_KEY);
  if (raw === undefined) return [0n, 0n];
  const r = new BorshReader(latin1ToBytes(raw));
  const indices: [bigint, bigint] = [r.u64(), r.u64()];
  r.end();
  return indices;
}

function saveIndices(su: StateUpdate, first: bigint, next: bigint): void {
  su.set(PROMISE_YIELD_INDICES_KEY, bytesToLatin1(new BorshWriter().u64(first).u64(next).toBytes()));
}

/**
 * nearcore `enqueue_promise_yield_timeout`: a shard's FIFO of yields by expiry height
 * (`PromiseYieldIndices` at key 0x0a, `PromiseYieldTimeout {account_id, data_id, expires_at}`
 * at 0x0b ‖ u64_le(index)). Entries are in expiry order because every yield of a block gets
 * the same timeout length.
 */
export function enqueuePromiseYieldTimeout(su: StateUpdate, accountId: string, dataId: Uint8Array, expiresAt: number): void {
  const [first, next] = loadIndices(su);
  const entry = new BorshWriter().string(accountId).fixed(dataId).u64(BigInt(expiresAt)).toBytes();
  su.set(promiseYieldTimeoutKey(next), bytesToLatin1(entry));
  saveIndices(su, first, next + 1n);
}

/**
 * nearcore lib.rs `resolve_promise_yield_timeouts`, after the chunk's receipts: every queue
 * entry that expired by `blockHeight` leaves the queue; one whose yield is still stored gets a
 * PromiseResume receipt with no data, id sha256(data_id ‖ height ‖ n), sent to the account
 * like any new receipt (it runs in the next block; a resume that arrived first wins, see
 * processReceipt). Like nearcore, it stops while the chunk is full (`full`), leaving the rest
 * for later chunks. The caller commits.
 */
export function resolvePromiseYieldTimeouts(su: StateUpdate, blockHeight: number, full: () => boolean): YieldTimeout[] {
  let [first, next] = loadIndices(su);
  const initialFirst = first;
  const out: YieldTimeout[] = [];
  while (first < next && !full()) {
    const key = promiseYieldTimeoutKey(first);
    const raw = su.get(key);
    if (raw === undefined) throw new Error(`PromiseYield timeout queue entry #${first} should be in the state`);
    const r = new BorshReader(latin1ToBytes(raw));
    const accountId = r.string();
    const dataId = r.fixed(32);
    const expiresAt = r.u64();
    r.end();
    if (expiresAt > BigInt(blockHeight)) break;
    const stored = su.get(promiseYieldReceiptKey(accountId, dataId));
    if (stored !== undefined) {
      out.push({
        resume: {
          predecessorId: accountId,
          receiverId: accountId,
          receiptId: receiptIdFromReceipt(dataId, blockHeight, out.length),
          body: { type: "Data", dataId, data: null, isPromiseResume: true },
        },
        yieldReceiptId: decodeReceipt(latin1ToBytes(stored)).receiptId,
      });
    }
    su.remove(key);
    first++;
  }
  if (first !== initialFirst) saveIndices(su, first, next);
  return out;
}
