/**
 * Worker thread of {@link WorkerEntrySorter}: owns an {@link EntrySorter}, takes batches of
 * entry records from the loader (acknowledging each, which is the loader's back-pressure) and,
 * once asked, merges the runs and sends the sorted entries back in batches, never more than
 * `MAX_SORTED_BATCHES_IN_FLIGHT` unacknowledged ones.
 */
import { parentPort, workerData } from "node:worker_threads";
import { EntrySorter } from "./EntrySorter.js";
import { entryRecordSize, readEntryRecords, writeEntryRecord } from "./entryRecords.js";
import { BATCH_BYTES, MAX_SORTED_BATCHES_IN_FLIGHT, type ToSorter, type FromSorter } from "./entrySortMessages.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { errorCode, errorMessage } from "@shardkit/primitives/errorMessage";
import { InvariantError } from "../must.js";

const port = parentPort!;
/** What WorkerEntrySorter starts the thread with: its scratch directory and run size. */
function isSorterData(v: unknown): v is { dir: string; runBytes: number | undefined } {
  return isJsonObject(v) && typeof v.dir === "string" && (v.runBytes === undefined || typeof v.runBytes === "number");
}
const data: unknown = workerData;
if (!isSorterData(data)) throw new InvariantError("the genesis entry sort worker was started without its directory");
const { dir, runBytes } = data;
const sorter = new EntrySorter(dir, runBytes);
let credit = MAX_SORTED_BATCHES_IN_FLIGHT;
let stopped = false;
let merging = false;
let wake: (() => void) | undefined;

const send = (message: FromSorter, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

function fail(e: unknown): void {
  send({ kind: "error", message: errorMessage(e), code: errorCode(e) });
}

function stop(): void {
  stopped = true;
  wake?.();
  if (!merging) finish();
}

/** Removes the scratch files and lets the thread end (even when the removal fails, or the loader would wait for an exit that never comes). */
function finish(): void {
  try {
    sorter.dispose();
  } catch (e) {
    fail(e);
  } finally {
    port.close();
  }
}

async function merge(): Promise<void> {
  merging = true;
  let buf = Buffer.from(new ArrayBuffer(BATCH_BYTES));
  let at = 0;
  const flush = async () => {
    while (credit === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
    if (stopped) return;
    credit--;
    send({ kind: "sorted", buffer: buf.buffer, length: at }, [buf.buffer]);
    buf = Buffer.from(new ArrayBuffer(BATCH_BYTES));
    at = 0;
  };
  try {
    for (const entry of sorter.sorted()) {
      const need = entryRecordSize(entry.key, entry.value);
      if (at + need > buf.length) {
        if (at > 0) await flush();
        if (stopped) return; // leaving the loop closes the runs (the generator's finally)
        if (need > buf.length) buf = Buffer.from(new ArrayBuffer(need));
      }
      at = writeEntryRecord(buf, at, entry.key, entry.value, entry.record, entry.owner);
    }
    if (at > 0) await flush();
    if (!stopped) send({ kind: "done" });
  } finally {
    merging = false;
    if (stopped) finish();
  }
}

port.on("message", (message: ToSorter) => {
  try {
    switch (message.kind) {
      case "entries":
        readEntryRecords(Buffer.from(message.buffer, 0, message.length), (key, value, record, owner) => sorter.add(key, value, record, owner));
        send({ kind: "taken" });
        return;
      case "merge":
        merge().catch(fail);
        return;
      case "taken":
        credit++;
        wake?.();
        return;
      case "stop":
        stop();
        return;
    }
  } catch (e) {
    fail(e);
  }
});
