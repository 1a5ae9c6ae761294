import { NearRpcClient, clientConfig, enableValidation, experimentalCongestionLevel, experimentalGenesisConfig, experimentalSplitStorageInfo, genesisConfig, maintenanceWindows, networkInfo } from "@near-js/jsonrpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_VALIDATOR_STAKE } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { rpc, rpcResult, startTestService } from "./harness.js";

// 3 shards, epochs of 10 blocks, a 4-block retention on the regular listener.
let service: Service;
beforeAll(async () => {
  service = await startTestService({ retention: 4, chain: { blockTimeMs: 0, epochLength: 10, shards: 3, now: () => 1_789_640_989_123 } });
  for (let i = 0; i < 13; i++) service.chain.produceBlock(); // head 13, in the epoch of heights 11..20
});
afterAll(() => service.close());

const producerKey = devKeyPair("test.near").publicKeyString;

describe("genesis_config and EXPERIMENTAL_genesis_config", () => {
  it("answer the chain's genesis settings, the same for both names and every no-params form", async () => {
    const expected = await rpcResult(service.rpcUrl, "genesis_config", null);
    expect(expected).toMatchObject({
      protocol_version: service.chain.protocolVersion,
      genesis_time: "2026-09-17T10:29:49.123Z",
      chain_id: "localnet",
      genesis_height: 0,
      num_block_producer_seats: 1,
      num_block_producer_seats_per_shard: [1, 1, 1],
      avg_hidden_validator_seats_per_shard: [0, 0, 0],
      epoch_length: 10,
      gas_limit: 1_000_000_000_000_000,
      min_gas_price: "100000000",
      validators: [{ account_id: "test.near", public_key: producerKey, amount: DEV_VALIDATOR_STAKE.toString() }],
      transaction_validity_period: 86_400,
      total_supply: service.chain.totalSupply.toString(),
      shard_layout: { V2: { boundary_accounts: ["b", "c"], shard_ids: [0, 1, 2] } },
    });
    for (const params of [[], {}]) expect(await rpcResult(service.rpcUrl, "genesis_config", params)).toEqual(expected);
    expect(await rpcResult(service.rpcUrl, "EXPERIMENTAL_genesis_config", null)).toEqual(expected);
    // The block producer's genesis stake is its locked balance at genesis.
    expect(expected.validators[0].amount).toBe(service.chain.at(service.chain.genesisBlock).account("test.near")!.locked.toString());
    // Like nearcore, a params field the method does not declare is ignored (x-unknown-params: ignore).
    expect(await rpcResult(service.rpcUrl, "genesis_config", { x: 1 })).toEqual(expected);
  });
});

describe("client_config", () => {
  it("reports the listener's own settings", async () => {
    const regular = await rpcResult(service.rpcUrl, "client_config", null);
    const archival = await rpcResult(service.archivalUrl, "client_config", null);
    expect(regular).toMatchObject({
      archive: false,
      chain_id: "localnet",
      epoch_length: 10,
      rpc_addr: new URL(service.rpcUrl).host,
      min_block_production_delay: [0, 0],
      max_block_production_delay: [0, 0],
      num_block_producer_seats: 1,
      tracked_shards_config: "AllShards",
      trie_viewer_state_size_limit: 50_000,
      gc: { gc_num_epochs_to_keep: 5 },
    });
    expect(archival).toMatchObject({ archive: true, rpc_addr: new URL(service.archivalUrl).host, gc: { gc_num_epochs_to_keep: 0 } });
    expect(regular.version).toEqual((await rpcResult(service.rpcUrl, "status", null)).version);
  });
});

describe("network_info and EXPERIMENTAL_split_storage_info", () => {
  it("a node alone on its network, one hot store", async () => {
    expect(await rpcResult(service.rpcUrl, "network_info", [])).toEqual({
      active_peers: [],
      num_active_peers: 0,
      peer_max_count: 40,
      sent_bytes_per_sec: 0,
      received_bytes_per_sec: 0,
      known_producers: [],
    });
    expect(await rpcResult(service.rpcUrl, "EXPERIMENTAL_split_storage_info", {})).toEqual({ head_height: 13, final_head_height: 11, cold_head_height: null, hot_db_kind: "RPC" });
    expect((await rpcResult(service.archivalUrl, "EXPERIMENTAL_split_storage_info", null)).hot_db_kind).toBe("Archive");
  });
});

describe("maintenance_windows and EXPERIMENTAL_maintenance_windows", () => {
  it("the producer has none; anyone else is free from the head to the end of the epoch", async () => {
    for (const method of ["maintenance_windows", "EXPERIMENTAL_maintenance_windows"]) {
      expect(await rpcResult(service.rpcUrl, method, { account_id: "test.near" })).toEqual([]);
      expect(await rpcResult(service.rpcUrl, method, { account_id: "alice.test.near" })).toEqual([{ start: 13, end: 21 }]);
      expect(await rpcResult(service.rpcUrl, method, { account_id: "nobody.test.near" })).toEqual([{ start: 13, end: 21 }]);
    }
    const bad = await rpc(service.rpcUrl, "maintenance_windows", { account_id: "Alice" });
    expect(bad.body.error.cause.info.error_message).toBe(`Failed parsing args: invalid value: "Alice", the Account ID contains an invalid character 'A' at index 0`);
  });
});

describe("EXPERIMENTAL_congestion_level", () => {
  it("answers the level of a chunk named by hash, by block and shard, or positionally", async () => {
    const block = service.chain.blockByHeight(12)!;
    const chunk = block.view.chunks[2]!;
    for (const params of [{ chunk_id: chunk.chunk_hash }, { block_id: 12, shard_id: 2 }, { block_id: block.hash, shard_id: 2 }, [chunk.chunk_hash], [[12, 2]]]) {
      expect(await rpcResult(service.rpcUrl, "EXPERIMENTAL_congestion_level", params)).toEqual({ congestion_level: 0 });
    }
  });

  it("refuses unknown chunks, blocks and shards with chunk's errors", async () => {
    const error = async (url: string, params: unknown) => (await rpc(url, "EXPERIMENTAL_congestion_level", params)).body.error;
    const hash = service.chain.blockByHeight(5)!.view.chunks[0]!.chunk_hash;
    const server = { name: "HANDLER_ERROR", code: -32000, message: "Server error" };
    expect(await error(service.rpcUrl, { block_id: 12, shard_id: 7 })).toEqual({ ...server, cause: { name: "INVALID_SHARD_ID", info: { shard_id: 7 } }, data: "Shard id 7 does not exist" });
    expect(await error(service.rpcUrl, { block_id: 99, shard_id: 0 })).toEqual({ ...server, cause: { name: "UNKNOWN_BLOCK", info: {} }, data: "DB Not Found Error: BLOCK HEIGHT: 99 \n Cause: Unknown" });
    // Height 5 is outside the regular listener's 4-block window: its chunk and body are gone there.
    expect(await error(service.rpcUrl, { chunk_id: hash })).toEqual({
      ...server,
      cause: { name: "UNKNOWN_CHUNK", info: { chunk_hash: hash } },
      data: `Chunk Missing (unavailable on the node): ChunkHash(\`${hash}\`) \n Cause: Unknown`,
    });
    expect((await error(service.rpcUrl, { block_id: 5, shard_id: 0 })).cause.name).toBe("UNKNOWN_BLOCK");
    expect(await rpcResult(service.archivalUrl, "EXPERIMENTAL_congestion_level", { chunk_id: hash })).toEqual({ congestion_level: 0 });
    const both = await rpc(service.rpcUrl, "EXPERIMENTAL_congestion_level", { chunk_id: hash, block_id: 5, shard_id: 0 });
    expect([both.status, both.body.error.cause.name]).toEqual([400, "PARSE_ERROR"]);
  });
});

describe("@near-js/jsonrpc-client validates every answer with nearcore's schemas", () => {
  beforeAll(() => enableValidation());
  it("genesis_config, client_config, network_info, maintenance windows, split storage, congestion level", async () => {
    const client = new NearRpcClient({ endpoint: service.rpcUrl, retries: 0 });
    expect((await genesisConfig(client)).epochLength).toBe(10);
    expect((await experimentalGenesisConfig(client)).chainId).toBe("localnet");
    expect((await clientConfig(client)).archive).toBe(false);
    expect((await networkInfo(client)).numActivePeers).toBe(0);
    expect(await maintenanceWindows(client, { accountId: "alice.test.near" })).toEqual([{ start: 13, end: 21 }]);
    expect((await experimentalSplitStorageInfo(client, {})).headHeight).toBe(13);
    expect((await experimentalCongestionLevel(client, { blockId: 12, shardId: 1 })).congestionLevel).toBe(0);
  });
});
