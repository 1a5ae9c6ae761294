import { bytesToLatin1 } from "../primitives/latin1.js";
import type { PublicKey } from "@shardkit/primitives/publicKey";
import type { DecodedSignedTransaction } from "../transaction/index.js";
import { at } from "../must.js";

const nonceOf = (stx: DecodedSignedTransaction): bigint => {
  const tx = stx.transaction;
  return tx.version === 0 ? tx.nonce : tx.nonce.nonce;
};

/** Groups by signer and raw key bytes (cheaper than formatting the key on every submission). */
const groupKey = (signerId: string, publicKey: PublicKey): string =>
  `${signerId} ${publicKey.keyType}${bytesToLatin1(publicKey.data)}`;

/**
 * Validated transactions waiting for a block, grouped by access key. A block takes them all:
 * per shard, one transaction per key in turn (keys in arrival order, each key's transactions
 * by nonce), like nearcore's pool iterator.
 */
export class TransactionPool {
  private readonly groups = new Map<string, { shard: number; txs: DecodedSignedTransaction[] }>();
  private readonly hashes = new Set<string>();

  /** Transactions waiting. */
  get size(): number {
    return this.hashes.size;
  }

  has(hash: string): boolean {
    return this.hashes.has(hash);
  }

  add(stx: DecodedSignedTransaction, hash: string, shardIndex: number): void {
    const key = groupKey(stx.transaction.signerId, stx.transaction.publicKey);
    const group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, { shard: shardIndex, txs: [stx] });
    else group.txs.push(stx);
    this.hashes.add(hash);
  }

  /** Empties the pool into per-shard inclusion order. */
  drain(shardCount: number): DecodedSignedTransaction[][] {
    const out: DecodedSignedTransaction[][] = Array.from({ length: shardCount }, () => []);
    const queues: { shard: number; txs: DecodedSignedTransaction[] }[] = [];
    for (const group of this.groups.values()) {
      const txs = [...group.txs].sort((a, b) => {
        const d = nonceOf(a) - nonceOf(b);
        return d < 0n ? -1 : d > 0n ? 1 : 0;
      });
      queues.push({ shard: group.shard, txs });
    }
    for (let round = 0; queues.some((q) => round < q.txs.length); round++) {
      for (const q of queues) {
        const stx = q.txs[round];
        if (stx !== undefined) at(out, q.shard).push(stx);
      }
    }
    this.groups.clear();
    this.hashes.clear();
    return out;
  }
}
