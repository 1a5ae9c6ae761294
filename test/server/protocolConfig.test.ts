import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

const GENESIS_MS = 1_789_640_887_123;

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ retention: 3, chain: { blockTimeMs: 0, now: () => GENESIS_MS } });
  for (let i = 0; i < 6; i++) service.chain.produceBlock();
  url = service.rpcUrl;
});
afterAll(() => service.close());

describe("EXPERIMENTAL_protocol_config", () => {
  it("reports the chain's genesis settings and runtime parameters", async () => {
    const config = await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "final" });
    expect(config).toMatchObject({
      protocol_version: service.chain.protocolVersion,
      genesis_time: "2026-09-17T10:28:07.123Z",
      genesis_height: service.chain.genesisBlock.height,
      chain_id: service.chain.chainId,
      epoch_length: 43_200,
      gas_limit: 1_000_000_000_000_000,
      min_gas_price: "100000000",
      transaction_validity_period: 86_400,
      shard_layout: {
        V2: {
          boundary_accounts: ["b", "c", "k"],
          shard_ids: [0, 1, 2, 3],
          id_to_index_map: { "0": 0, "1": 1, "2": 2, "3": 3 },
          index_to_id_map: { "0": 0, "1": 1, "2": 2, "3": 3 },
          shards_split_map: null,
          shards_parent_map: null,
        },
      },
    });
    const runtime = config.runtime_config;
    expect(runtime.storage_amount_per_byte).toBe("10000000000000000000");
    expect(runtime.transaction_costs.action_creation_config.transfer_cost).toEqual({
      send_sir: 115_123_062_500,
      send_not_sir: 115_123_062_500,
      execution: 115_123_062_500,
    });
    expect(runtime.transaction_costs.action_receipt_creation_config.send_not_sir).toBe(108_059_500_000);
    expect(runtime.transaction_costs.storage_usage_config).toEqual({ num_bytes_account: 100, num_extra_bytes_record: 40 });
    expect(runtime.account_creation_config).toEqual({ min_allowed_top_level_account_length: 65, registrar_account_id: "registrar" });
  });

  it("answers the same for every way of naming a known block, retained or not", async () => {
    const expected = await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "optimistic" });
    const genesis = service.chain.genesisBlock;
    const params = [
      { finality: "near-final" },
      { block_id: service.chain.head().height },
      { block_id: service.chain.head().hash },
      { sync_checkpoint: "genesis" },
      { sync_checkpoint: "earliest_available" },
      // Outside the regular listener's retention window: nearcore resolves it by header.
      { block_id: genesis.height },
      { block_id: genesis.hash },
    ];
    for (const p of params) expect(await rpcResult(url, "EXPERIMENTAL_protocol_config", p)).toEqual(expected);
  });

  it("answers UNKNOWN_BLOCK for a block the chain never saw", async () => {
    const byHeight = await rpcError(url, "EXPERIMENTAL_protocol_config", { block_id: 10_000 });
    expect(byHeight.status).toBe(200);
    expect(byHeight.error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_BLOCK", info: {} },
      code: -32000,
      message: "Server error",
      data: "Block Not Found: BLOCK HEIGHT: 10000 \n Cause: Unknown",
    });
    const hash = "11111111111111111111111111111111";
    const byHash = await rpcError(url, "EXPERIMENTAL_protocol_config", { block_id: hash });
    expect(byHash.error.cause).toEqual({ name: "UNKNOWN_BLOCK", info: {} });
    expect(byHash.error.data).toBe(`Block Not Found: BLOCK HEADER: ${hash}`);
  });

  it("rejects params that name two blocks", async () => {
    const reply = await rpcError(url, "EXPERIMENTAL_protocol_config", { finality: "final", block_id: 1 });
    expect(reply.status).toBe(400);
    expect(reply.error.cause.name).toBe("PARSE_ERROR");
  });
});
