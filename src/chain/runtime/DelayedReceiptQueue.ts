import { BorshReader } from "@shardkit/primitives/borshReader";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import type { Receipt } from "./receipt.js";
import { decodeReceipt, encodeReceipt } from "./receiptCodec.js";
import { DELAYED_RECEIPT_INDICES_KEY, delayedReceiptKey } from "./runtimeTrieKeys.js";
import type { StateUpdate } from "./StateUpdate.js";

/**
 * A shard's FIFO of receipts that did not fit in a chunk's gas limit, kept in the shard's
 * state as nearcore keeps it (`DelayedReceiptIndices {first_index, next_available_index}` at
 * key 0x07, each receipt at 0x07 ‖ u64_le(index)). Reads and writes go through a
 * StateUpdate and are committed with the chunk.
 */
export class DelayedReceiptQueue {
  private constructor(
    private first: bigint,
    private next: bigint,
    private readonly initial: readonly [bigint, bigint],
  ) {}

  static load(su: StateUpdate): DelayedReceiptQueue {
    const raw = su.get(DELAYED_RECEIPT_INDICES_KEY);
    if (raw === undefined) return new DelayedReceiptQueue(0n, 0n, [0n, 0n]);
    const r = new BorshReader(latin1ToBytes(raw));
    const first = r.u64();
    const next = r.u64();
    r.end();
    return new DelayedReceiptQueue(first, next, [first, next]);
  }

  get length(): number {
    return Number(this.next - this.first);
  }

  push(su: StateUpdate, receipt: Receipt): void {
    su.set(delayedReceiptKey(this.next), bytesToLatin1(encodeReceipt(receipt)));
    this.next++;
  }

  pop(su: StateUpdate): Receipt | undefined {
    if (this.first === this.next) return undefined;
    const key = delayedReceiptKey(this.first);
    const raw = su.get(key);
    if (raw === undefined) throw new Error(`delayed receipt #${this.first} missing from state`);
    su.remove(key);
    this.first++;
    return decodeReceipt(latin1ToBytes(raw));
  }

  /** Writes the indices back when they changed (the caller commits). */
  save(su: StateUpdate): void {
    if (this.first === this.initial[0] && this.next === this.initial[1]) return;
    su.set(DELAYED_RECEIPT_INDICES_KEY, bytesToLatin1(new BorshWriter().u64(this.first).u64(this.next).toBytes()));
  }
}
