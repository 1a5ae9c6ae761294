import { afterAll, beforeAll, describe, expect, it } from "vitest";
import openrpc from "../../generated/openrpc.json" with { type: "json" };
import type { Service } from "../../src/server/startService.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ retention: 4 });
  for (let i = 0; i < 6; i++) service.chain.produceBlock();
  url = service.rpcUrl;
});
afterAll(() => service.close());

describe("block", () => {
  it("resolves finality levels to head, head-1 and head-2", async () => {
    const head = service.chain.head();
    const heights = await Promise.all(
      ["optimistic", "near-final", "final"].map(async (finality) => (await rpcResult(url, "block", { finality })).header.height),
    );
    expect(heights).toEqual([head.height, head.height - 1, head.height - 2]);
  });

  it("returns nearcore's block view by height, by hash and with the legacy positional form", async () => {
    const target = service.chain.blockByHeight(service.chain.head().height - 1)!;
    const byHeight = await rpcResult(url, "block", { block_id: target.height });
    expect(byHeight).toEqual(target.view);
    expect(byHeight.header).toMatchObject({ height: target.height, hash: target.hash, gas_price: "100000000" });
    expect(byHeight.header.timestamp_nanosec).toBe(String(byHeight.header.timestamp));
    expect(byHeight.chunks.map((c: { shard_id: number }) => c.shard_id)).toEqual([0, 1, 2, 3]);
    expect(await rpcResult(url, "block", { block_id: target.hash })).toEqual(byHeight);
    expect(await rpcResult(url, "block", [target.height])).toEqual(byHeight);
    const previous = await rpcResult(url, "block", { block_id: target.view.header.prev_hash });
    expect(previous.header.height).toBe(target.height - 1);
  });

  it("chains finality fields the doomslug way", async () => {
    const head = await rpcResult(url, "block", { finality: "optimistic" });
    const nearFinal = await rpcResult(url, "block", { finality: "near-final" });
    const final = await rpcResult(url, "block", { finality: "final" });
    expect(head.header.last_ds_final_block).toBe(nearFinal.header.hash);
    expect(head.header.last_final_block).toBe(final.header.hash);
  });

  it("answers UNKNOWN_BLOCK for unknown and garbage-collected blocks on the regular listener", async () => {
    const unknown = await rpcError(url, "block", { block_id: 10_000 });
    expect(unknown.status).toBe(200);
    expect(unknown.error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_BLOCK", info: {} },
      code: -32000,
      message: "Server error",
      data: "DB Not Found Error: BLOCK HEIGHT: 10000 \n Cause: Unknown",
    });
    const genesis = service.chain.genesisBlock;
    expect((await rpcError(url, "block", { block_id: genesis.height })).error.cause).toEqual({ name: "UNKNOWN_BLOCK", info: {} });
    expect((await rpcResult(service.archivalUrl, "block", { block_id: genesis.height })).header.hash).toBe(genesis.hash);
  });

  it("serves sync checkpoints: genesis on the archival listener, the earliest retained block on the regular one", async () => {
    const head = service.chain.head();
    expect((await rpcResult(url, "block", { sync_checkpoint: "earliest_available" })).header.height).toBe(head.height - 3);
    expect((await rpcResult(service.archivalUrl, "block", { sync_checkpoint: "earliest_available" })).header.height).toBe(
      service.chain.genesisBlock.height,
    );
    expect((await rpcResult(service.archivalUrl, "block", { sync_checkpoint: "genesis" })).header.hash).toBe(service.chain.genesisBlock.hash);
  });
});

describe("status, gas_price, health, rpc.discover", () => {
  it("status reports the chain, the head and the served window", async () => {
    const head = service.chain.head();
    const result = await rpcResult(url, "status", null);
    expect(result).toMatchObject({
      chain_id: service.chain.chainId,
      genesis_hash: service.chain.genesisBlock.hash,
      protocol_version: service.chain.protocolVersion,
      rpc_addr: new URL(url).host,
      sync_info: {
        latest_block_hash: head.hash,
        latest_block_height: head.height,
        syncing: false,
        earliest_block_height: head.height - 3,
      },
    });
    expect(result.sync_info.latest_block_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    const archival = await rpcResult(service.archivalUrl, "status", []);
    expect(archival.sync_info.earliest_block_height).toBe(service.chain.genesisBlock.height);
  });

  it("gas_price answers for the head, a height and the legacy [null] form", async () => {
    expect(await rpcResult(url, "gas_price", {})).toEqual({ gas_price: "100000000" });
    expect(await rpcResult(url, "gas_price", [null])).toEqual({ gas_price: "100000000" });
    expect(await rpcResult(url, "gas_price", { block_id: service.chain.head().height })).toEqual({ gas_price: "100000000" });
    expect((await rpcError(url, "gas_price", { block_id: 10_000 })).error.cause.name).toBe("UNKNOWN_BLOCK");
  });

  it("health answers null", async () => {
    expect(await rpcResult(url, "health", {})).toBeNull();
  });

  it("rpc.discover returns the assembled OpenRPC document", async () => {
    const doc = await rpcResult(url, "rpc.discover", []);
    expect(doc).toEqual(openrpc);
    expect(doc.methods.map((m: { name: string }) => m.name)).toEqual(expect.arrayContaining(["query", "block", "status", "gas_price", "health", "rpc.discover"]));
  });
});
