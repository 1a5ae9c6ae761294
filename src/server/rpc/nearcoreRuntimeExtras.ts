import type { CongestionControlConfigView, WitnessConfigView } from "../../../generated/rpc/types.js";

/**
 * Values of nearcore's runtime configuration view that shardkit's runtime parameter table
 * (src/chain/runtime/parameters.ts) does not carry, because nothing in the simulator charges
 * or enforces them. Source: the same nearcore snapshot the table follows,
 * `core/parameters/res/runtime_configs/parameters.snap` at commit 00fc9501.
 */

/** Host-function costs of functions shardkit's VM lacks (iterators, compilation). */
export const UNCHARGED_EXT_COSTS = {
  storage_iter_create_prefix_base: 0,
  storage_iter_create_prefix_byte: 0,
  storage_iter_create_range_base: 0,
  storage_iter_create_from_byte: 0,
  storage_iter_create_to_byte: 0,
  storage_iter_next_base: 0,
  storage_iter_next_key_byte: 0,
  storage_iter_next_value_byte: 0,
  contract_compile_base: 0,
  contract_compile_bytes: 0,
} as const;

/** nearcore's VM feature flags and VM choice in that snapshot. */
export const VM_FLAGS = {
  grow_mem_cost: 1,
  vm_kind: "Wasmtime",
  discard_custom_sections: true,
  // Always on since protocol 62; nearcore's published schema still requires the flag.
  saturating_float_to_int: true,
  global_contract_host_fns: true,
  reftypes_bulk_memory: true,
  gas_key_host_fns: true,
  one_yocto_on_promise: true,
  p256_verify_host_fn: true,
  // Protocol 85 host functions shardkit's VM provides (src/chain/vm/imports/yieldImports.ts, contextImports.ts).
  yield_with_id_host_fns: true,
  chain_id_host_fn: true,
  storage_get_mode: "FlatStorage",
  fix_contract_loading_cost: false,
  implicit_account_creation: true,
  eth_implicit_accounts: true,
} as const;

/** Limits of nearcore's `LimitConfig` that the simulator does not check. */
export const UNENFORCED_LIMITS = {
  max_receipt_size: 4_194_304,
  max_params_per_contract: 50_000,
  max_params_per_function: 64,
  max_operand_stack_bytes_per_function: 8_192,
  max_instrumented_code_size: 16_777_216,
  max_blocks_per_function: 5_000,
  max_blocks_per_contract: 50_000,
  max_types_per_contract: 1_024,
  account_id_validity_rules_version: 2,
  per_receipt_storage_proof_size_limit: 4_000_000,
} as const;

/** NEP-539 congestion control: shardkit has none. */
export const CONGESTION_CONTROL: CongestionControlConfigView = {
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
};

/** Chunk state witness limits: shardkit produces no witnesses. */
export const WITNESS: WitnessConfigView = {
  main_storage_proof_size_soft_limit: 4_000_000,
  combined_transactions_size_limit: 4_194_304,
  new_transactions_validation_state_size_soft_limit: 572_864,
};

/** nearcore genesis defaults for chunk validation that `genesis_config` does not list. */
export const CHUNK_VALIDATION_DEFAULTS = {
  target_validator_mandates_per_shard: 68,
  minimum_validators_per_shard: 1,
  shuffle_shard_assignment_for_chunk_producers: false,
} as const;
