/** Messages between {@link WorkerEntrySorter} and its worker (entrySortWorker.ts). */

/** Size of one batch of entry records (a batch holds at least one record, however large). */
export const BATCH_BYTES = 1 << 20;
/**
 * Entry batches sent to the worker and not yet taken: what bounds the memory between the threads
 * on the way in. It covers the time the worker spends sorting and writing a 64 MiB run, during
 * which it takes nothing: with 8 the loader waited ~11 s of a 10M-entry load's 50 s of reading.
 */
export const MAX_ENTRY_BATCHES_IN_FLIGHT = 64;
/** Sorted batches sent back and not yet consumed (the merge is cheaper than the trie build: a few suffice). */
export const MAX_SORTED_BATCHES_IN_FLIGHT = 8;

/** Loader → worker. */
export type ToSorter =
  /** Entry records to add (the buffer is transferred). */
  | { readonly kind: "entries"; readonly buffer: ArrayBuffer; readonly length: number }
  /** Every entry is in: merge and send them back sorted. */
  | { readonly kind: "merge" }
  /** One sorted batch was consumed. */
  | { readonly kind: "taken" }
  /** Stop (the load ended or failed): close the runs, remove the scratch files, exit. */
  | { readonly kind: "stop" };

/** Worker → loader. */
export type FromSorter =
  /** One batch of entries was added. */
  | { readonly kind: "taken" }
  /** Sorted entry records (the buffer is transferred). */
  | { readonly kind: "sorted"; readonly buffer: ArrayBuffer; readonly length: number }
  /** Every sorted entry was sent. */
  | { readonly kind: "done" }
  /** The sorter failed (e.g. the scratch disk is full). */
  | { readonly kind: "error"; readonly message: string; readonly code: string | undefined };
