import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { errorMessage } from "@shardkit/primitives/errorMessage";

/**
 * A Lua script run with EVALSHA (only the 40-byte digest goes over the wire per call). Redis
 * forgets scripts on restart (and on SCRIPT FLUSH): a NOSCRIPT reply loads it once and retries.
 */
export class RedisScript {
  readonly sha1: string;

  constructor(readonly source: string) {
    this.sha1 = createHash("sha1").update(source, "utf8").digest("hex");
  }

  async run(client: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha1, keys.length, ...keys, ...args);
    } catch (error) {
      if (!errorMessage(error).startsWith("NOSCRIPT")) throw error;
      await client.script("LOAD", this.source);
      return client.evalsha(this.sha1, keys.length, ...keys, ...args);
    }
  }
}
