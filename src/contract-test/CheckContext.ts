import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { RpcMethodName } from "../../generated/rpc/methods.js";
import { validateResult, type RpcResult } from "../../generated/rpc/validators.js";
import { exchange, type HttpExchange } from "./httpExchange.js";
import { describeErrors } from "./rpcConformance.js";

/** Thrown by a check to fail with a message; the request it names becomes the curl line. */
export class CheckFailure extends ShardkitError<"CHECK_FAILED"> {
  override readonly name = "CheckFailure";
  constructor(
    message: string,
    readonly request: HttpExchange | undefined,
  ) {
    super("CHECK_FAILED", message);
  }
}

/** Thrown by a check that cannot run against this target (nothing to test it with). */
export class CheckSkipped extends ShardkitError<"CHECK_SKIPPED"> {
  override readonly name = "CheckSkipped";
  constructor(message: string) {
    super("CHECK_SKIPPED", message);
  }
}

/** The JSON-RPC envelope as the suite reads it. */
export interface RpcEnvelope {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { name?: unknown; cause?: { name?: unknown; info?: unknown }; code?: unknown; message?: unknown; data?: unknown };
}

export interface RpcExchange extends HttpExchange {
  readonly envelope: RpcEnvelope;
}

/** What one check uses to talk to the target; remembers the last request for the failure's curl line. */
export class CheckContext {
  last: HttpExchange | undefined;

  constructor(
    readonly timeoutMs: number,
    readonly headers: Readonly<Record<string, string>>,
  ) {}

  /** POSTs a JSON-RPC request; fails the check when no well-formed envelope comes back. */
  async rpc(url: string, method: string, params: unknown): Promise<RpcExchange> {
    return this.rpcRaw(url, JSON.stringify({ jsonrpc: "2.0", id: "contract-test", method, params }));
  }

  async rpcRaw(url: string, body: string, headers: Readonly<Record<string, string>> = {}): Promise<RpcExchange> {
    const reply = await this.send("POST", url, body, headers);
    const envelope = reply.json;
    if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) {
      throw new CheckFailure(`HTTP ${reply.status}: the body is not a JSON-RPC envelope: ${reply.text.slice(0, 200)}`, reply);
    }
    return { ...reply, envelope: envelope as RpcEnvelope };
  }

  /** The result of a call that must succeed (any error fails the check). */
  async rpcResult(url: string, method: string, params: unknown): Promise<any> {
    const reply = await this.rpc(url, method, params);
    if (reply.envelope.error !== undefined || !("result" in reply.envelope)) {
      throw new CheckFailure(`${method} answered an error: ${JSON.stringify(reply.envelope.error).slice(0, 300)}`, reply);
    }
    return reply.envelope.result;
  }

  /** The result of a call that must succeed and match the spec's result schema of `method` (else the check fails). */
  async typedResult<M extends RpcMethodName>(url: string, method: M, params: unknown): Promise<RpcResult<M>> {
    const result: unknown = await this.rpcResult(url, method, params);
    const validate = validateResult[method];
    if (!validate(result)) this.fail(`${method} result does not match the spec: ${describeErrors(validate.errors)}`);
    return result;
  }

  /** Any request; fails the check on a transport error (timeout, refused connection). */
  async send(
    method: "GET" | "POST",
    url: string,
    body: string | undefined,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<HttpExchange> {
    // An empty value removes a default header (e.g. the API key, to test the ?apiKey= form).
    const merged = Object.fromEntries(Object.entries({ ...this.headers, ...headers }).filter(([, value]) => value !== ""));
    const reply = await exchange(method, url, body, { timeoutMs: this.timeoutMs, headers: merged });
    this.last = reply;
    if (reply.transportError !== undefined) throw new CheckFailure(reply.transportError, reply);
    return reply;
  }

  fail(message: string): never {
    throw new CheckFailure(message, this.last);
  }

  skip(message: string): never {
    throw new CheckSkipped(message);
  }
}


