import type { HistoryReader } from "../../indexer/history/HistoryStore.js";
import type { IndexReader } from "../../indexer/IndexStore.js";

/** What REST handlers read: the index (each read is one consistent block) and the chain head for health. */
export interface RestContext {
  readonly index: IndexReader;
  /** The transaction history index (`/v0`); a listener without one answers 503 there. */
  readonly history?: HistoryReader | undefined;
  /** Height of the chain's head block (the index may be a few blocks behind it). */
  headHeight(): number;
  /** Wall clock in ms (status latency). */
  now(): number;
  /** Service version reported by /status. */
  readonly version: string;
}
