import { NearRpcClient, experimentalProtocolConfig } from "@near-js/jsonrpc-client";
import { readFileSync } from "node:fs";
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
  it("reports protocol 86, nearcore 2.13's STABLE_PROTOCOL_VERSION, as status and genesis_config do", async () => {
    const config = await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "final" });
    expect(config.protocol_version).toBe(86);
    const status = await rpcResult(url, "status", null);
    expect([status.protocol_version, status.latest_protocol_version]).toEqual([86, 86]);
    expect((await rpcResult(url, "genesis_config", null)).protocol_version).toBe(86);
    expect((await rpcResult(url, "block", { finality: "final" })).header.latest_protocol_version).toBe(86);
  });

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
    // Protocol 85 (nearcore's config-store snapshot 85, AccountCostIncrease / NEP-642).
    expect(runtime.transaction_costs.action_creation_config.create_account_cost).toEqual({
      send_sir: 500_000_000_000,
      send_not_sir: 500_000_000_000,
      execution: 7_200_000_000_000,
    });
    expect(runtime.min_gas_purchase_price).toBe("1000000000");
    expect(runtime.account_creation_charge).toBe("7000000000000000000000");
  });

  it("reports nearcore's validator economics, from genesis_config where both have the field", async () => {
    const config = await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "final" });
    const genesis = await rpcResult(url, "genesis_config", null);
    expect(config).toMatchObject({
      num_block_producer_seats: 1,
      num_block_producer_seats_per_shard: [1, 1, 1, 1],
      avg_hidden_validator_seats_per_shard: [0, 0, 0, 0],
      dynamic_resharding: false,
      protocol_upgrade_stake_threshold: [4, 5],
      block_producer_kickout_threshold: 90,
      chunk_producer_kickout_threshold: 90,
      chunk_validator_only_kickout_threshold: 80,
      target_validator_mandates_per_shard: 68,
      online_min_threshold: [90, 100],
      online_max_threshold: [99, 100],
      gas_price_adjustment_rate: [0, 1],
      num_blocks_per_year: 31_536_000,
      protocol_treasury_account: service.chain.blockProducer.accountId,
      fishermen_threshold: "10000000000000000000000000",
      minimum_stake_divisor: 10,
      max_kickout_stake_perc: 100,
      minimum_stake_ratio: [1, 6250],
      minimum_validators_per_shard: 1,
      shuffle_shard_assignment_for_chunk_producers: false,
    });
    for (const [field, value] of Object.entries(genesis)) {
      if (!["validators", "total_supply", "use_production_config"].includes(field)) expect(config[field], field).toEqual(value);
    }
  });

  // nearcore 2.13's config store has no 86.yaml: protocol 86 resolves to 85's parameters
  // (RuntimeConfigStore::get_config takes the last diff at or below the version).
  it("equals nearcore's protocol 85 config-store snapshot (86 has no diff of its own) except where nearcore-differences.yaml says why", async () => {
    const runtime = (await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "final" })).runtime_config;
    const nearcore = JSON.parse(readFileSync(new URL("../compat/nearcore/runtime-config-85.json", import.meta.url), "utf8")).runtime_config;
    const flat = (value: unknown, path = "", out = new Map<string, unknown>()): Map<string, unknown> => {
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value)) flat(v, path === "" ? k : `${path}.${k}`, out);
      } else out.set(path, JSON.stringify(value));
      return out;
    };
    const ours = flat(runtime);
    const theirs = flat(nearcore);
    const differences = [...new Set([...ours.keys(), ...theirs.keys()])]
      .filter((k) => ours.get(k) !== theirs.get(k))
      .sort()
      .map((k) => `${k}: ${ours.get(k) ?? "-"} (nearcore ${theirs.get(k) ?? "-"})`);
    // Entry protocol-config-parameter-snapshot: features shardkit's runtime and VM lack, the
    // VM nearcore's table names (redacted in the snapshot), and the flags its schema still requires.
    expect(differences).toEqual([
      'wasm_config.bls12381_not_in_group_fix: - (nearcore false)',
      'wasm_config.ext_costs.sha3_256_base: - (nearcore 5879491275)',
      'wasm_config.ext_costs.sha3_256_byte: - (nearcore 21471105)',
      'wasm_config.saturating_float_to_int: true (nearcore -)',
      'wasm_config.sha3_256_host_fn: - (nearcore false)',
      'wasm_config.vm_kind: "Wasmtime" (nearcore -)',
    ]);
  });

  it("reports the VM's costs, flags and limits and nearcore's congestion and witness sections", async () => {
    const runtime = (await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "final" })).runtime_config;
    const wasm = runtime.wasm_config;
    // Charged by shardkit's VM (src/chain/runtime/parameters.ts) ...
    expect(wasm.ext_costs).toMatchObject({
      base: 264_768_111,
      storage_write_base: 64_196_736_000,
      storage_read_base: 56_356_845_749,
      touching_trie_node: 2_280_000_000,
      ed25519_verify_base: 210_000_000_000,
      yield_resume_byte: 47_683_715,
      yield_create_with_id_base: 290_000_000_000,
    });
    // ... and nearcore's costs of host functions shardkit answers with a HostError.
    expect(wasm.ext_costs).toMatchObject({
      alt_bn128_pairing_check_base: 9_686_000_000_000,
      bls12381_g2_multiexp_element: 1_995_000_000_000,
      p256_verify_base: 1_300_000_000_000,
      storage_iter_next_base: 0,
      contract_compile_bytes: 0,
    });
    expect(Object.keys(wasm.ext_costs)).toHaveLength(90);
    expect(wasm).toMatchObject({
      grow_mem_cost: 1,
      regular_op_cost: 822_756,
      linear_op_base_cost: 26_328_192,
      linear_op_unit_cost: 822_756,
      vm_kind: "Wasmtime",
      saturating_float_to_int: true,
      storage_get_mode: "FlatStorage",
      implicit_account_creation: true,
      eth_implicit_accounts: true,
      // Protocol 85 host functions (nearcore's 85 config-store snapshot).
      yield_with_id_host_fns: true,
      chain_id_host_fn: true,
      one_yocto_on_promise: true,
    });
    expect(wasm.limit_config).toMatchObject({
      max_gas_burnt: 1_000_000_000_000_000,
      max_total_prepaid_gas: 1_000_000_000_000_000,
      max_stack_height: 262_144,
      initial_memory_pages: 1_024,
      max_memory_pages: 2_048,
      max_transaction_size: 1_572_864,
      max_receipt_size: 4_194_304,
      max_length_storage_key: 2_048,
      max_actions_per_receipt: 100,
      account_id_validity_rules_version: 2,
      yield_timeout_length_in_blocks: 200,
      per_receipt_storage_proof_size_limit: 4_000_000,
    });
    expect(runtime.congestion_control_config).toEqual({
      max_congestion_incoming_gas: 400_000_000_000_000_000,
      max_congestion_outgoing_gas: 10_000_000_000_000_000,
      max_congestion_memory_consumption: 1_000_000_000,
      max_congestion_missed_chunks: 125,
      max_outgoing_gas: 300_000_000_000_000_000,
      min_outgoing_gas: 1_000_000_000_000_000,
      allowed_shard_outgoing_gas: 1_000_000_000_000_000,
      max_tx_gas: 500_000_000_000_000,
      min_tx_gas: 20_000_000_000_000,
      reject_tx_congestion_threshold: 0.8,
      outgoing_receipts_usual_size_limit: 102_400,
      outgoing_receipts_big_size_limit: 4_718_592,
    });
    expect(runtime.witness_config).toEqual({
      main_storage_proof_size_soft_limit: 4_000_000,
      combined_transactions_size_limit: 4_194_304,
      new_transactions_validation_state_size_soft_limit: 572_864,
    });
  });

  it("passes @near-js/jsonrpc-client's response validation (nearcore's own schema)", async () => {
    const client = new NearRpcClient({ endpoint: url, retries: 0 });
    // The validated export parses the response with nearcore's zod schema and throws on any missing field.
    const config = await experimentalProtocolConfig(client, { finality: "final" });
    expect(config.runtimeConfig.wasmConfig.limitConfig.maxGasBurnt).toBe(1_000_000_000_000_000);
    expect(config.runtimeConfig.congestionControlConfig.rejectTxCongestionThreshold).toBe(0.8);
    expect(config.runtimeConfig.witnessConfig.mainStorageProofSizeSoftLimit).toBe(4_000_000);
    expect(config.targetValidatorMandatesPerShard).toBe(68);
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
