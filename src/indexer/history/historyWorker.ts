/**
 * Worker thread of {@link WorkerHistoryIndexer}: owns the data dir's history index, the only
 * writer of its LMDB environment. Builds each block it is sent into a history update and
 * writes the blocks it has received in one transaction per turn (at most BATCH), reporting the
 * height after each; the main thread reads the same environment for `/v0`.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "@shardkit/primitives/errorMessage";
import { historyBlockInput } from "./historyBlockData.js";
import { HistoryBuilder } from "./HistoryBuilder.js";
import type { HistoryBlockUpdate } from "./HistoryStore.js";
import type { FromHistoryWorker, HistoryWorkerData, ToHistoryWorker } from "./historyWorkerMessages.js";
import { LmdbHistoryStore } from "./LmdbHistoryStore.js";

/** Blocks written per transaction (a catch-up sends them 64 a message). */
const BATCH = 64;

const port = parentPort!;
const { dir, failAtHeight } = workerData as HistoryWorkerData;
const report = (message: FromHistoryWorker) => port.postMessage(message);
const builder = new HistoryBuilder();
const queue: ToHistoryWorker[] = [];
let store: LmdbHistoryStore | undefined;
let scheduled = false;
let failed = false;
let closing: Promise<void> | undefined;

/** Flushes and closes the store, once (a failure closes it, and so does the main thread's close). */
function closeStore(): Promise<void> {
  return (closing ??= Promise.resolve(store?.close()));
}

/** The store's incomplete transactions back in the builder (after opening, after a rewind). */
function resume(from: LmdbHistoryStore): void {
  builder.clear();
  for (const record of from.incompleteTransactions()) builder.resume(record, from.block(record.row.tx_block_height)?.row.gas_price);
}

/** Stops for good: the main thread says the index is unavailable; the store is closed whole. */
function fail(error: unknown): void {
  if (failed) return;
  failed = true;
  queue.length = 0;
  report({ type: "failed", message: errorMessage(error) });
  closeStore().catch(() => {});
}

function schedule(): void {
  if (scheduled || failed) return;
  scheduled = true;
  setImmediate(drain);
}

/** Handles queued requests in order: a rewind, or a run of blocks (one write); yields after each write so that a close gets through. */
function drain(): void {
  scheduled = false;
  const open = store;
  if (open === undefined || failed) return;
  try {
    const next = queue[0];
    if (next?.type === "rewind") {
      queue.shift();
      if (open.height !== null) open.rewind(next.height);
      resume(open);
      report({ type: "rewound", height: open.height });
    } else if (next?.type === "blocks") {
      const updates: HistoryBlockUpdate[] = [];
      try {
        while (queue[0]?.type === "blocks" && updates.length < BATCH) {
          const { blocks } = queue.shift() as Extract<ToHistoryWorker, { type: "blocks" }>;
          for (const data of blocks) {
            if (data.block.height === failAtHeight) throw new Error(`injected failure at block ${failAtHeight}`);
            updates.push(builder.update(historyBlockInput(data)));
          }
        }
      } finally {
        // The builder has moved past every block built: those go to the store even when a later one failed.
        open.applyBlocks(updates);
      }
      report({ type: "indexed", height: open.height });
    }
  } catch (error) {
    fail(error);
  }
  if (queue.length > 0) schedule();
}

port.on("message", (message: ToHistoryWorker) => {
  if (message.type !== "close") {
    queue.push(message);
    schedule();
    return;
  }
  queue.length = 0;
  failed = true;
  closeStore().then(
    () => report({ type: "closed" }),
    (error: unknown) => report({ type: "failed", message: `closing the history index: ${errorMessage(error)}` }),
  );
});

try {
  const opened = LmdbHistoryStore.open(dir);
  store = opened;
  resume(opened);
  report({ type: "opened", height: opened.height });
} catch (error) {
  fail(error);
}
