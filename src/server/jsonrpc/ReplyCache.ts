import type { RpcReply } from "./processRequest.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

export interface ReplyCacheOptions {
  /**
   * A value that changes whenever an answer could change (for the chain: the head block
   * object, which every block production, state patch and revert replaces). Entries made
   * under another generation are dropped, so an `optimistic` answer always reflects the head.
   */
  generation: () => unknown;
  /** Which requests may be cached (default: `query` reads of chain state, see cacheableQuery). */
  cacheable?: (method: string, params: unknown) => boolean;
  /** Entries kept per level (default 1,024). */
  maxEntries?: number;
  /** Bytes of keys and answers kept per level (default 8 MiB). */
  maxBytes?: number;
}

/** Request bodies longer than this are never cached (their key would cost more than it saves). */
const MAX_BODY_KEY_BYTES = 4096;
/** Answers longer than this are never cached (large pages: the cache is for small hot ones). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * `query` reads of state at a block are pure functions of that block, its state and the
 * chain's block list (finality and the retention window): the same request under the same head
 * answers the same bytes. `call_function` runs a contract under a wall-clock budget, so its
 * answer is not cached.
 */
export function cacheableQuery(method: string, params: unknown): boolean {
  if (method !== "query") return false;
  if (!isJsonObject(params)) return false;
  const type = params.request_type;
  return type !== undefined && type !== "call_function";
}

/** One bounded map: on overflow the oldest half goes (Map iterates in insertion order). */
class BoundedMap<V> {
  private readonly map = new Map<string, V>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  get size(): number {
    return this.map.size;
  }

  set(key: string, value: V): void {
    if (this.map.has(key)) return;
    const size = key.length + this.sizeOf(value);
    if (this.map.size >= this.maxEntries || this.bytes + size > this.maxBytes) this.dropOldestHalf();
    this.map.set(key, value);
    this.bytes += size;
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  private dropOldestHalf(): void {
    let drop = Math.max(1, this.map.size >> 1);
    for (const [key, value] of this.map) {
      this.map.delete(key);
      this.bytes -= key.length + this.sizeOf(value);
      if (--drop === 0) break;
    }
  }
}

/**
 * Serialized successful answers for the current generation, at two levels: by the exact request
 * bytes (the whole reply, id included: nothing is parsed or validated again, since the same
 * bytes validate the same way) and by method + params as validated (the result JSON, for
 * clients that change the id on every request). Errors are never cached: they are answered
 * the way they always were.
 */
export class ReplyCache {
  private readonly byBody: BoundedMap<RpcReply>;
  private readonly byParams: BoundedMap<string>;
  private readonly generation: () => unknown;
  private current: unknown;
  readonly cacheable: (method: string, params: unknown) => boolean;

  constructor(options: ReplyCacheOptions) {
    const maxEntries = options.maxEntries ?? 1024;
    const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    this.byBody = new BoundedMap(maxEntries, maxBytes, (reply) => reply.body.length);
    this.byParams = new BoundedMap(maxEntries, maxBytes, (json) => json.length);
    this.generation = options.generation;
    this.cacheable = options.cacheable ?? cacheableQuery;
    this.current = options.generation();
  }

  /** Drops everything when the generation moved on; call once per request before the lookups. */
  refresh(): void {
    const now = this.generation();
    if (now === this.current) return;
    this.current = now;
    this.byBody.clear();
    this.byParams.clear();
  }

  /**
   * The key of a request body, or undefined when the body is too long to be cached. Computed
   * only while something is cached: a node that only takes transactions never pays for it.
   */
  bodyKey(body: Buffer): string | undefined {
    return body.length <= MAX_BODY_KEY_BYTES && this.byParams.size > 0 ? body.toString("latin1") : undefined;
  }

  replyFor(bodyKey: string): RpcReply | undefined {
    return this.byBody.get(bodyKey);
  }

  /** The key of validated params: their JSON as parsed (a different key order is just a miss). */
  paramsKey(method: string, params: unknown): string {
    return `${method}\u0000${JSON.stringify(params)}`;
  }

  resultFor(paramsKey: string): string | undefined {
    return this.byParams.get(paramsKey);
  }

  /** Remembers a successful answer under the generation it was computed in. */
  remember(bodyKey: string | undefined, paramsKey: string, resultJson: string, reply: RpcReply): void {
    if (resultJson.length > MAX_ANSWER_BYTES) return;
    this.byParams.set(paramsKey, resultJson);
    if (bodyKey !== undefined) this.byBody.set(bodyKey, reply);
  }
}
