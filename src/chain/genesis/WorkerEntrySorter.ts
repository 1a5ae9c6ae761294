import type { Worker } from "node:worker_threads";
import { entryRecordSize, writeEntryRecord } from "./entryRecords.js";
import { BATCH_BYTES, MAX_ENTRY_BATCHES_IN_FLIGHT, type FromSorter, type ToSorter } from "./entrySortMessages.js";
import { startWorker } from "../startWorker.js";

/**
 * {@link EntrySorter} on a worker thread, so a genesis load uses both cores: the loader's
 * thread parses records and adds entries (copied into batches of entry records, sent to the
 * worker), the worker sorts and spills the runs; then the worker merges them while the
 * loader builds the tries from the sorted batches it sends back. Memory between the threads
 * is bounded both ways (entrySortMessages.ts): a fixed number of batches may be unacknowledged (the
 * loader awaits `ready()` between file chunks; the worker waits before sending more).
 */
export class WorkerEntrySorter {
  private readonly worker: Worker;
  private batch = newBatch(BATCH_BYTES);
  private at = 0;
  private inFlight = 0;
  private readonly received: FromSorter[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private exited = false;
  /** Entries added. */
  count = 0;

  constructor(dir: string, runBytes?: number) {
    this.worker = startWorker(import.meta.url, "entrySortWorker", { workerData: { dir, runBytes } });
    this.worker.on("message", (message: FromSorter) => {
      if (message.kind === "taken") this.inFlight--;
      else if (message.kind === "error") this.fail(Object.assign(new Error(`genesis sort (scratch files in ${dir}): ${message.message}`), { code: message.code }));
      else this.received.push(message);
      this.wakeUp();
    });
    this.worker.on("error", (e) => this.fail(e));
    this.worker.on("exit", (code) => {
      this.exited = true;
      this.fail(new Error(`genesis sort worker exited (code ${code})`));
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private post(message: ToSorter, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  add(key: string, value: string, record: number, owner: number): void {
    const need = entryRecordSize(key, value);
    if (this.at + need > this.batch.length) {
      this.send();
      if (need > this.batch.length) this.batch = newBatch(need);
    }
    this.at = writeEntryRecord(this.batch, this.at, key, value, record, owner);
    this.count++;
  }

  private send(): void {
    this.check();
    if (this.at === 0) return;
    const buffer = this.batch.buffer;
    this.post({ kind: "entries", buffer, length: this.at }, [buffer]);
    this.inFlight++;
    this.batch = newBatch(BATCH_BYTES);
    this.at = 0;
  }

  /** Resolves once the worker has caught up (call between chunks of input). */
  async ready(): Promise<void> {
    while (this.inFlight >= MAX_ENTRY_BATCHES_IN_FLIGHT) {
      this.check();
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.check();
  }

  /** Every entry in key order (equal keys adjacent, by record), as batches of entry records (entryRecords.ts). */
  async *sortedBatches(): AsyncGenerator<Buffer> {
    this.send();
    this.post({ kind: "merge" });
    for (;;) {
      while (this.received.length === 0) {
        this.check();
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
      const message = this.received.shift()!;
      if (message.kind === "done") return this.check();
      if (message.kind !== "sorted") continue;
      this.post({ kind: "taken" });
      yield Buffer.from(message.buffer, 0, message.length);
    }
  }

  /** Stops the worker, which closes its runs and removes its scratch files. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    this.post({ kind: "stop" });
    await exited;
  }
}

/** A batch buffer that owns its whole ArrayBuffer (so it can be transferred). */
function newBatch(bytes: number): Buffer<ArrayBuffer> {
  return Buffer.from(new ArrayBuffer(bytes));
}
