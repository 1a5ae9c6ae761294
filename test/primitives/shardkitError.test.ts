import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ShardkitError } from "@shardkit/primitives";
import { Base58Error, base58Decode } from "@shardkit/primitives/base58";
import { RpcHttpError, RpcResponseError, UnknownAccountError } from "@shardkit/client";
import { IndexUnavailableError } from "../../src/indexer/IndexUnavailableError.js";
import { LightClientProofError, asInvalidInput } from "../../src/proof/LightClientProofError.js";
import { RpcError } from "../../src/server/errors.js";
import { repoRoot } from "../cli/cliProcess.js";

describe("ShardkitError", () => {
  it("keeps the code, the short message and the details apart, and joins them in message", () => {
    const plain = new ShardkitError("SOME_CODE", "it broke");
    expect([plain.code, plain.shortMessage, plain.details, plain.message, plain.name]).toEqual(["SOME_CODE", "it broke", undefined, "it broke", "ShardkitError"]);
    expect(plain.cause).toBeUndefined();
    expect("cause" in plain).toBe(false);
    const detailed = new ShardkitError("SOME_CODE", "it broke", { details: "connect ECONNREFUSED 127.0.0.1:5432" });
    expect(detailed.message).toBe("it broke: connect ECONNREFUSED 127.0.0.1:5432");
  });

  it("walk() finds the innermost cause, or the first error a predicate accepts, or null", () => {
    const root = new TypeError("fetch failed");
    const middle = new ShardkitError("MIDDLE", "middle", { cause: root });
    const top = new ShardkitError("TOP", "top", { cause: middle });
    expect(top.walk()).toBe(root);
    expect(top.walk((e) => e instanceof ShardkitError && e.code === "MIDDLE")).toBe(middle);
    expect(top.walk((e) => e === top)).toBe(top);
    expect(top.walk((e) => e instanceof RangeError)).toBeNull();
    expect(new ShardkitError("ALONE", "alone").walk()).toBeInstanceOf(ShardkitError);
  });

  it("walk() stops on a cause cycle", () => {
    const a = new ShardkitError("A", "a");
    const b = new ShardkitError("B", "b", { cause: a });
    Object.defineProperty(a, "cause", { value: b });
    expect(b.walk()).toBe(a);
    expect(b.walk(() => false)).toBeNull();
  });

  it("is the base of the errors of the packages, the server, the indexer and the proofs, each with a stable code", () => {
    let base58: unknown;
    try {
      base58Decode("0OIl");
    } catch (error) {
      base58 = error;
    }
    expect(base58).toBeInstanceOf(Base58Error);
    expect(base58).toMatchObject({ code: "INVALID_BASE58" });
    expect(base58).toBeInstanceOf(ShardkitError);

    const unavailable = new IndexUnavailableError("connect ECONNREFUSED", { cause: new Error("socket") });
    expect(unavailable).toMatchObject({ code: "INDEX_UNAVAILABLE", shortMessage: "the account index is unavailable", details: "connect ECONNREFUSED", reason: "connect ECONNREFUSED" });
    expect(unavailable.message).toBe("the account index is unavailable: connect ECONNREFUSED");
    expect((unavailable.walk() as Error).message).toBe("socket");

    expect(new RpcError("UNKNOWN_BLOCK", {}, "DB Not Found Error")).toMatchObject({ code: "UNKNOWN_BLOCK", causeName: "UNKNOWN_BLOCK", message: "DB Not Found Error" });

    const answer = new UnknownAccountError("query", 200, {
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_ACCOUNT", info: { requested_account_id: "a.near", block_height: 1, block_hash: "11111111111111111111111111111111" } },
      code: -32000,
      message: "Server error",
      data: "account a.near does not exist while viewing",
    });
    expect(answer).toBeInstanceOf(RpcResponseError);
    expect(answer).toBeInstanceOf(ShardkitError);
    expect(answer).toMatchObject({ code: "UNKNOWN_ACCOUNT", rpcCode: -32000, shortMessage: "query: UNKNOWN_ACCOUNT", message: "query: UNKNOWN_ACCOUNT: account a.near does not exist while viewing" });
    expect(new RpcHttpError("health", 403, "Unknown API key")).toMatchObject({ code: "NOT_JSON_RPC", message: "health: HTTP 403: Unknown API key" });

    // A malformed input keeps what was wrong with it as the cause.
    let proof: unknown;
    try {
      asInvalidInput(() => base58Decode("0"));
    } catch (error) {
      proof = error;
    }
    expect(proof).toBeInstanceOf(LightClientProofError);
    expect(proof).toMatchObject({ code: "INVALID_INPUT" });
    expect((proof as LightClientProofError).walk((e) => e instanceof Base58Error)).toBeInstanceOf(Base58Error);
  });
});

describe("error classes", () => {
  /** Every .ts file under `dir`, tests aside. */
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "dist" || entry.name === "node_modules" ? [] : sources(path);
      return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
    });
  }

  it("outside src/chain, none extends Error (or a built-in error) directly: each is a ShardkitError", () => {
    const files = [...sources(join(repoRoot, "src")), ...sources(join(repoRoot, "packages"))].filter((file) => !relative(repoRoot, file).startsWith("src/chain/") && !file.endsWith("ShardkitError.ts"));
    const direct = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/class (\w+)(?:<[^{]*?>)? extends (?:Error|RangeError|TypeError)\b/g)].map((m) => `${relative(repoRoot, file)}: ${m[1]}`),
    );
    expect(direct).toEqual([]);
  });
});
