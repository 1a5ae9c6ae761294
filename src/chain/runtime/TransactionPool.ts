import { formatPublicKey } from "../primitives/publicKey.js";
import type { DecodedSignedTransaction } from "../transaction/index.js";

const nonceOf = (stx: DecodedSignedTransaction): bigint => {
  const tx = stx.transaction;
  return tx.version === 0 ? tx.nonce : tx.nonce.nonce;
};

const keyOf = (stx: DecodedSignedTransaction): string =>
  `${stx.transaction.signerId} ${formatPublicKey(stx.transaction.publicKey)}`;

/**
 * Validated transactions waiting for a block, grouped by access key. A block takes them all:
 * per shard, one transaction per key in turn (keys in arrival order, each key's transactions
 * by nonce), like nearcore's pool iterator.
 */
export class TransactionPool {
  private readonly groups = new Map<string, { shard: number; txs: DecodedSignedTransaction[] }>();
  private readonly hashes = new Set<string>();

  get size(): number {
    return this.hashes.size;
  }

  has(hash: string): boolean {
    return this.hashes.has(hash);
  }

  add(stx: DecodedSignedTransaction, hash: string, shardIndex: number): void {
    const key = keyOf(stx);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { shard: shardIndex, txs: [] };
      this.groups.set(key, group);
    }
    group.txs.push(stx);
    this.hashes.add(hash);
  }

  /** The highest nonce pooled for a signer's key, if any. */
  highestNonce(signerId: string, publicKey: string): bigint | undefined {
    const group = this.groups.get(`${signerId} ${publicKey}`);
    if (group === undefined) return undefined;
    return group.txs.reduce<bigint | undefined>((max, stx) => {
      const n = nonceOf(stx);
      return max === undefined || n > max ? n : max;
    }, undefined);
  }

  /** Empties the pool into per-shard inclusion order. */
  drain(shardCount: number): DecodedSignedTransaction[][] {
    const out: DecodedSignedTransaction[][] = Array.from({ length: shardCount }, () => []);
    const queues: { shard: number; txs: DecodedSignedTransaction[] }[] = [];
    for (const group of this.groups.values()) {
      const txs = [...group.txs].sort((a, b) => (nonceOf(a) < nonceOf(b) ? -1 : nonceOf(a) > nonceOf(b) ? 1 : 0));
      queues.push({ shard: group.shard, txs });
    }
    for (let round = 0; queues.some((q) => round < q.txs.length); round++) {
      for (const q of queues) {
        const stx = q.txs[round];
        if (stx !== undefined) out[q.shard]!.push(stx);
      }
    }
    this.groups.clear();
    this.hashes.clear();
    return out;
  }
}
