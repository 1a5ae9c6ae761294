import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from "node:worker_threads";
import { startWorker } from "../startWorker.js";
import { UpstreamRpcError, UpstreamUnavailableError } from "./UpstreamError.js";
import { isUpstreamReply, type UpstreamReply, type UpstreamSettings } from "./upstreamMessages.js";

/**
 * Defaults of a fork's upstream calls. The caller's thread is blocked while a call runs, so a
 * call's whole budget (attempts × timeout + backoff) is kept to about ten seconds.
 */
export const UPSTREAM_DEFAULTS = {
  requestsPerSecond: 20,
  attempts: 3,
  backoffMs: 250,
  attemptTimeoutMs: 3_000,
  /** After a call that got no usable answer, calls fail at once for this long (nothing blocks). */
  cooldownMs: 10_000,
} as const;

/**
 * A JSON-RPC client whose calls block the calling thread until the answer is in. Contract
 * execution reads state synchronously (a wasm host function cannot await), so a fork's state
 * reads must be synchronous too: the call is made by a worker thread and this thread sleeps
 * on a shared signal (Atomics.wait) until the worker has posted the reply, then takes it off
 * the port without the event loop. Nothing else runs on this thread meanwhile; the upstream
 * is asked only on a cache miss.
 *
 * So that an upstream that is down or hangs cannot hold the thread again and again, a call
 * that got no usable answer opens a breaker: for `cooldownMs` every call fails at once with
 * that failure, then the next call tries the upstream again. A worker that dies is started
 * anew on the next call.
 */
export class BlockingRpc {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private readonly waitLimitMs: number;
  private readonly cooldownMs: number;
  /** Until when calls fail at once, and with what. */
  private broken: { until: number; reason: string } | undefined;
  /** Calls made to the upstream (each may have taken several attempts). */
  calls = 0;

  constructor(
    readonly settings: UpstreamSettings,
    options: { cooldownMs?: number; now?: () => number } = {},
  ) {
    const { attempts, attemptTimeoutMs, backoffMs, requestsPerSecond } = settings;
    this.waitLimitMs = attempts * attemptTimeoutMs + backoffMs * 2 ** attempts + (attempts * 1000) / requestsPerSecond + 2_000;
    this.cooldownMs = options.cooldownMs ?? UPSTREAM_DEFAULTS.cooldownMs;
    this.now = options.now ?? Date.now;
  }

  private readonly now: () => number;

  private start(): MessagePort {
    if (this.port !== undefined) return this.port;
    const { port1, port2 } = new MessageChannel();
    const worker = startWorker(import.meta.url, "blockingRpcWorker", {
      workerData: { port: port2, signal: this.signal, settings: this.settings },
      transferList: [port2],
    });
    // The worker must not keep the process alive, nor its port the event loop; one that dies
    // (it should not: it answers every request) is replaced on the next call.
    worker.unref();
    port1.unref();
    const forget = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.port?.close();
      this.port = undefined;
    };
    worker.on("error", forget);
    worker.on("exit", forget);
    this.worker = worker;
    this.port = port1;
    return port1;
  }

  /** `label` names the call in errors (e.g. `query view_account alice.near`). */
  call(method: string, params: unknown, label = method): unknown {
    const broken = this.broken;
    if (broken !== undefined) {
      if (this.now() < broken.until) {
        throw new UpstreamUnavailableError(label, this.settings.url, `${broken.reason} (asked again after ${new Date(broken.until).toISOString()})`);
      }
      this.broken = undefined;
    }
    const port = this.start();
    const id = this.nextId++;
    this.calls++;
    Atomics.store(this.signal, 0, 0);
    port.postMessage({ id, method, params });
    const started = this.now();
    for (;;) {
      const reply = this.take(port, id);
      if (reply !== undefined) {
        if (reply.kind === "result") return reply.result;
        if (reply.kind === "rpc-error") throw new UpstreamRpcError(label, this.settings.url, reply.error);
        throw this.fail(label, reply.message);
      }
      // The worker posts a reply before it raises the signal, so a reply posted after the
      // take above finds the signal raised and the wait returns at once.
      const left = this.waitLimitMs - (this.now() - started);
      if (left <= 0 || Atomics.wait(this.signal, 0, 0, left) === "timed-out") throw this.fail(label, `no answer within ${this.waitLimitMs} ms`);
      Atomics.store(this.signal, 0, 0);
    }
  }

  private fail(label: string, reason: string): UpstreamUnavailableError {
    this.broken = { until: this.now() + this.cooldownMs, reason };
    return new UpstreamUnavailableError(label, this.settings.url, reason);
  }

  /** The reply to call `id`, dropping replies of earlier calls that timed out. */
  private take(port: MessagePort, id: number): UpstreamReply | undefined {
    for (;;) {
      const received = receiveMessageOnPort(port);
      if (received === undefined) return undefined;
      const reply: unknown = received.message;
      if (isUpstreamReply(reply) && reply.id === id) return reply;
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.port?.close();
    this.port = undefined;
    await worker?.terminate();
  }
}
