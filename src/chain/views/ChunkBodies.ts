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

/** The bodies of produced chunks by chunk hash (read from the chain store; see blocks/BlockHistory.ts). */
export interface ChunkBodies {
  /** The recorded body, or undefined for a chunk whose body was never recorded (genesis, unknown). */
  get(chunkHash: string): ChunkBody | undefined;
}
