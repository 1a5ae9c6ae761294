import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from "node:worker_threads";
import { startWorker } from "../startWorker.js";
import { UpstreamRpcError, UpstreamUnavailableError } from "./UpstreamError.js";
import type { UpstreamReply, UpstreamSettings } from "./upstreamMessages.js";

/** Defaults of a fork's upstream calls. */
export const UPSTREAM_DEFAULTS = {
  requestsPerSecond: 20,
  attempts: 4,
  backoffMs: 250,
  attemptTimeoutMs: 15_000,
} as const;

/**
 * A JSON-RPC client whose calls block the calling thread until the answer is in. Contract
 * execution reads state synchronously (a wasm host function cannot await), so a fork's state
 * reads must be synchronous too: the call is made by a worker thread and this thread sleeps
 * on a shared signal (Atomics.wait) until the worker has posted the reply, then takes it off
 * the port without the event loop. Nothing else runs on this thread meanwhile; the upstream
 * is asked only on a cache miss.
 */
export class BlockingRpc {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private readonly waitLimitMs: number;
  /** Calls made (each may have taken several attempts). */
  calls = 0;

  constructor(readonly settings: UpstreamSettings) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = startWorker(import.meta.url, "blockingRpcWorker", {
      workerData: { port: port2, signal: this.signal, settings },
      transferList: [port2],
    });
    // The worker must not keep the process alive, nor its port the event loop.
    this.worker.unref();
    this.port.unref();
    const { attempts, attemptTimeoutMs, backoffMs, requestsPerSecond } = settings;
    this.waitLimitMs = attempts * attemptTimeoutMs + backoffMs * 2 ** attempts + 60_000 / requestsPerSecond + 5_000;
  }

  /** `label` names the call in errors (e.g. `query view_account alice.near`). */
  call(method: string, params: unknown, label = method): unknown {
    const id = this.nextId++;
    this.calls++;
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage({ id, method, params });
    for (;;) {
      const reply = this.take(id);
      if (reply !== undefined) {
        if (reply.kind === "result") return reply.result;
        if (reply.kind === "rpc-error") throw new UpstreamRpcError(label, this.settings.url, reply.error);
        throw new UpstreamUnavailableError(label, this.settings.url, reply.message);
      }
      // The worker posts a reply before it raises the signal, so a reply posted after the
      // take above finds the signal raised and the wait returns at once.
      if (Atomics.wait(this.signal, 0, 0, this.waitLimitMs) === "timed-out") {
        throw new UpstreamUnavailableError(label, this.settings.url, `no answer within ${this.waitLimitMs} ms`);
      }
      Atomics.store(this.signal, 0, 0);
    }
  }

  /** The reply to call `id`, dropping replies of earlier calls that timed out. */
  private take(id: number): UpstreamReply | undefined {
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (received === undefined) return undefined;
      const reply = received.message as UpstreamReply;
      if (reply.id === id) return reply;
    }
  }

  async close(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}
