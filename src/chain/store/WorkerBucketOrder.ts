import type { Worker } from "node:worker_threads";
import { startWorker } from "../startWorker.js";
import type { BucketOrderAnswer, BucketOrderRequest, OrderedBucket } from "./bucketOrder.js";

/**
 * Runs bucketOrder on a worker thread, so a bulk load sorts the next node bucket while it
 * writes the current one to LMDB. A bucket's memory is moved to the worker and back
 * (transferred, not copied). Requests are answered in order.
 */
export class WorkerBucketOrder {
  private readonly worker: Worker;
  private readonly pending: { resolve: (bucket: OrderedBucket) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | undefined;
  private exited = false;

  constructor() {
    this.worker = startWorker(import.meta.url, "bucketOrderWorker");
    this.worker.on("message", (message: BucketOrderAnswer) => {
      const request = this.pending.shift();
      if ("error" in message) request?.reject(new Error(`node bucket sort: ${message.error}`));
      else request?.resolve({ data: Buffer.from(message.buffer, 0, message.length), order: message.order });
    });
    this.worker.on("error", (e) => this.fail(e));
    this.worker.on("exit", (code) => {
      this.exited = true;
      this.fail(new Error(`node bucket sort worker exited (code ${code})`));
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const request of this.pending.splice(0)) request.reject(this.failure);
  }

  order(data: Buffer): Promise<OrderedBucket> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    // Only a buffer that owns its whole ArrayBuffer can be transferred.
    const whole = data.buffer;
    const buffer = data.byteOffset === 0 && whole.byteLength === data.length && whole instanceof ArrayBuffer ? whole : new Uint8Array(data).buffer;
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      const request: BucketOrderRequest = { buffer, length: data.length };
      this.worker.postMessage(request, [request.buffer]);
    });
  }

  async close(): Promise<void> {
    if (!this.exited) await this.worker.terminate();
  }
}
