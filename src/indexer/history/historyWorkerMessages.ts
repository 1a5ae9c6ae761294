import type { HistoryBlockData } from "./historyBlockData.js";

/** What the history worker is started with. */
export interface HistoryWorkerData {
  /** The index's LMDB environment (`<data-dir>/history`). */
  readonly dir: string;
  /** A fault to inject (tests): the worker fails when it is sent the block of this height. */
  readonly failAtHeight?: number | undefined;
}

/** What a worker is started with, checked (workerData is untyped). */
export function isHistoryWorkerData(value: unknown): value is HistoryWorkerData {
  if (typeof value !== "object" || value === null || !("dir" in value) || typeof value.dir !== "string") return false;
  return !("failAtHeight" in value) || value.failAtHeight === undefined || typeof value.failAtHeight === "number";
}

/** The main thread's requests, handled in order ("close" drops blocks not written: they are indexed again on the next start). */
export type ToHistoryWorker =
  /** Build these blocks now; write them with the others of the turn. */
  | { readonly type: "blocks"; readonly blocks: readonly HistoryBlockData[] }
  /** The main thread's turn is over: write the blocks built since the last write. */
  | { readonly type: "commit" }
  /** Forget the blocks above `height` (a revert), then take blocks from the height kept. */
  | { readonly type: "rewind"; readonly height: number }
  | { readonly type: "close" };

/** The worker's reports: the height its store holds after each step, or why it stopped. */
export type FromHistoryWorker =
  | { readonly type: "opened"; readonly height: number | null }
  | { readonly type: "indexed"; readonly height: number | null }
  | { readonly type: "rewound"; readonly height: number | null }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "closed" };
