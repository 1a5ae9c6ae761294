import type { Block } from "../node.js";
import type { ChunkResult } from "../runtime/applyChunk.js";
import type { Receipt } from "../runtime/receipt.js";
import type { DecodedSignedTransaction } from "../transaction/index.js";

/** What a chunk carries besides its header: its transactions and the receipts it sends on. */
export interface ChunkBody {
  readonly transactions: readonly DecodedSignedTransaction[];
  /** The chunk's outgoing receipts, in the order of its header's `outgoing_receipts_root`. */
  readonly receipts: readonly Receipt[];
}

/** The body of a genesis chunk, which carries nothing (the chain records no body for it). */
export const GENESIS_CHUNK_BODY: ChunkBody = { transactions: [], receipts: [] };

/**
 * The bodies of produced chunks by chunk hash, kept as the chain produces them. In memory
 * and unbounded, like the chain's blocks; serving layers apply retention.
 *
 * The chain feeds it from `Chain.recordExecution`.
 */
export class ChunkBodies {
  private readonly bodies = new Map<string, ChunkBody>();

  /** Records the chunks of `block`: `results[i]` is the execution of shard index i. */
  record(block: Block, results: readonly ChunkResult[]): void {
    results.forEach((result, i) => {
      const chunk = block.view.chunks[i];
      if (chunk === undefined) return;
      this.bodies.set(chunk.chunk_hash, { transactions: result.included.map((t) => t.stx), receipts: [...result.outgoing] });
    });
  }

  /** The recorded body, or undefined for a chunk whose body was never recorded (genesis, unknown). */
  get(chunkHash: string): ChunkBody | undefined {
    return this.bodies.get(chunkHash);
  }
}
