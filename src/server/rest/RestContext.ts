import type { IndexReader } from "../../indexer/IndexStore.js";

/** What REST handlers read: the index (one consistent block) and the chain head for health. */
export interface RestContext {
  readonly index: IndexReader;
  /** Height of the chain's head block (the index may be a few blocks behind it). */
  headHeight(): number;
  /** Wall clock in ms (status latency). */
  now(): number;
  /** Service version reported by /status. */
  readonly version: string;
}

/** The block every response reflects; the indexer applies genesis before the listener opens. */
export function indexedHeight(ctx: RestContext): number {
  const height = ctx.index.height;
  if (height === null) throw new Error("the index has not applied genesis yet");
  return height;
}
