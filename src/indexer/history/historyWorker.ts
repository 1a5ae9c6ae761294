/**
 * Worker thread of {@link WorkerHistoryIndexer}: owns the data dir's history index, the only
 * writer of its LMDB environment. Builds each block it is sent into a history update as it
 * arrives and writes the blocks of one main-thread turn in one transaction (at most BATCH),
 * reporting the height after each write; the main thread reads the same environment for `/v0`.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "@shardkit/primitives/errorMessage";
import { historyBlockInput } from "./historyBlockData.js";
import { HistoryBuilder } from "./HistoryBuilder.js";
import type { HistoryBlockUpdate } from "./HistoryStore.js";
import { isHistoryWorkerData, type FromHistoryWorker, type ToHistoryWorker } from "./historyWorkerMessages.js";
import { LmdbHistoryStore } from "./LmdbHistoryStore.js";

/** Blocks written per transaction at most (a catch-up sends them 64 a message). */
const BATCH = 64;

if (parentPort === null) throw new Error("historyWorker.ts runs as a worker thread");
const port = parentPort;
if (!isHistoryWorkerData(workerData)) throw new Error(`history worker started without its data (got ${JSON.stringify(workerData)})`);
const { dir, failAtHeight } = workerData;
const report = (message: FromHistoryWorker) => port.postMessage(message);
const builder = new HistoryBuilder();
let store: LmdbHistoryStore | undefined;
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
  report({ type: "failed", message: errorMessage(error) });
  closeStore().catch(() => {});
}

/** Built blocks not written yet (written on "commit", before a rewind, or once BATCH of them wait). */
const built: HistoryBlockUpdate[] = [];

/** Writes the blocks built since the last write, in one transaction. */
function write(open: LmdbHistoryStore): void {
  if (built.length === 0) return;
  open.applyBlocks(built.splice(0));
  report({ type: "indexed", height: open.height });
}

/**
 * Handles a request as it arrives: blocks are built at once (while the main thread produces
 * the next ones), and written when the main thread's turn that sent them is over ("commit"),
 * so that a transaction several blocks of one turn advance is written once.
 */
function handle(message: Exclude<ToHistoryWorker, { type: "close" }>): void {
  const open = store;
  if (open === undefined || failed) return;
  try {
    if (message.type === "blocks") {
      try {
        for (const data of message.blocks) {
          if (data.block.height === failAtHeight) throw new Error(`injected failure at block ${failAtHeight}`);
          built.push(builder.update(historyBlockInput(data)));
          if (built.length >= BATCH) write(open);
        }
      } catch (error) {
        // The builder has moved past every block built: those go to the store before the failure.
        write(open);
        throw error;
      }
    } else if (message.type === "commit") {
      write(open);
    } else {
      write(open);
      if (open.height !== null) open.rewind(message.height);
      resume(open);
      report({ type: "rewound", height: open.height });
    }
  } catch (error) {
    fail(error);
  }
}

port.on("message", (message: ToHistoryWorker) => {
  if (message.type !== "close") return handle(message);
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
