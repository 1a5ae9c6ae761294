/*
 * Signatures of nearcore's host functions (near-vm-runner imports.rs): parameter types, then
 * ':' and the result type ('' = none). I = i64, i = i32. A contract that imports a known name
 * with another signature cannot link (nearcore/wasmtime: "incompatible import type").
 */
const I = (n: number): string => "I".repeat(n);

const ENV: Record<string, string> = {
  read_register: `${I(2)}:`,
  register_len: `${I(1)}:I`,
  write_register: `${I(3)}:`,
  current_account_id: `${I(1)}:`,
  signer_account_id: `${I(1)}:`,
  signer_account_pk: `${I(1)}:`,
  predecessor_account_id: `${I(1)}:`,
  refund_to_account_id: `${I(1)}:`,
  chain_id: `${I(1)}:`,
  input: `${I(1)}:`,
  block_index: ":I",
  block_timestamp: ":I",
  epoch_height: ":I",
  storage_usage: ":I",
  current_contract_code: `${I(1)}:I`,
  account_balance: `${I(1)}:`,
  account_locked_balance: `${I(1)}:`,
  attached_deposit: `${I(1)}:`,
  prepaid_gas: ":I",
  used_gas: ":I",
  storage_config_byte_cost: `${I(1)}:`,
  storage_config_num_bytes_account: ":I",
  storage_config_num_extra_bytes_record: ":I",
  random_seed: `${I(1)}:`,
  sha256: `${I(3)}:`,
  keccak256: `${I(3)}:`,
  keccak512: `${I(3)}:`,
  sha3_256: `${I(3)}:`,
  sha3_384: `${I(3)}:`,
  sha3_512: `${I(3)}:`,
  ripemd160: `${I(3)}:`,
  ed25519_verify: `${I(6)}:I`,
  ecrecover: `${I(7)}:I`,
  value_return: `${I(2)}:`,
  panic: ":",
  panic_utf8: `${I(2)}:`,
  log_utf8: `${I(2)}:`,
  log_utf16: `${I(2)}:`,
  abort: "iiii:",
  gas: "i:",
  promise_create: `${I(8)}:I`,
  promise_then: `${I(9)}:I`,
  promise_and: `${I(2)}:I`,
  promise_batch_create: `${I(2)}:I`,
  promise_batch_then: `${I(3)}:I`,
  promise_batch_action_create_account: `${I(1)}:`,
  promise_batch_action_deploy_contract: `${I(3)}:`,
  promise_batch_action_function_call: `${I(7)}:`,
  promise_batch_action_function_call_weight: `${I(8)}:`,
  promise_batch_action_transfer: `${I(2)}:`,
  promise_batch_action_stake: `${I(4)}:`,
  promise_batch_action_add_key_with_full_access: `${I(4)}:`,
  promise_batch_action_add_key_with_function_call: `${I(9)}:`,
  promise_batch_action_delete_key: `${I(3)}:`,
  promise_batch_action_delete_account: `${I(3)}:`,
  promise_batch_action_transfer_to_gas_key: `${I(4)}:`,
  promise_batch_action_add_gas_key_with_full_access: `${I(4)}:`,
  promise_batch_action_add_gas_key_with_function_call: `${I(9)}:`,
  promise_results_count: ":I",
  promise_result: `${I(2)}:I`,
  promise_return: `${I(1)}:`,
  storage_write: `${I(5)}:I`,
  storage_read: `${I(3)}:I`,
  storage_remove: `${I(3)}:I`,
  storage_has_key: `${I(2)}:I`,
  storage_iter_prefix: `${I(2)}:I`,
  storage_iter_range: `${I(4)}:I`,
  storage_iter_next: `${I(3)}:I`,
  validator_stake: `${I(3)}:`,
  validator_total_stake: `${I(1)}:`,
  alt_bn128_g1_multiexp: `${I(3)}:`,
  alt_bn128_g1_sum: `${I(3)}:`,
  alt_bn128_pairing_check: `${I(2)}:I`,
  bls12381_p1_sum: `${I(3)}:I`,
  bls12381_p2_sum: `${I(3)}:I`,
  bls12381_g1_multiexp: `${I(3)}:I`,
  bls12381_g2_multiexp: `${I(3)}:I`,
  bls12381_map_fp_to_g1: `${I(3)}:I`,
  bls12381_map_fp2_to_g2: `${I(3)}:I`,
  bls12381_pairing_check: `${I(2)}:I`,
  bls12381_p1_decompress: `${I(3)}:I`,
  bls12381_p2_decompress: `${I(3)}:I`,
  p256_verify: `${I(6)}:I`,
  ml_dsa_verify: `${I(6)}:I`,
  promise_yield_create: `${I(7)}:I`,
  promise_yield_resume: `${I(4)}:i`,
  promise_yield_create_with_id: `${I(9)}:I`,
  promise_yield_resume_with_yield_id: `${I(4)}:i`,
  promise_set_refund_to: `${I(3)}:`,
  promise_batch_action_deploy_global_contract: `${I(3)}:`,
  promise_batch_action_deploy_global_contract_by_account_id: `${I(3)}:`,
  promise_batch_action_use_global_contract: `${I(3)}:`,
  promise_batch_action_use_global_contract_by_account_id: `${I(3)}:`,
  promise_batch_action_state_init: `${I(4)}:I`,
  promise_batch_action_state_init_by_account_id: `${I(4)}:I`,
  set_state_init_data_entry: `${I(6)}:`,
  // sandbox_debug_log exists only in nearcore's sandbox builds: importing it does not link.
};

/** finite-wasm instrumentation imports (module `internal`). */
const INTERNAL: Record<string, string> = {
  finite_wasm_gas: "I:",
  finite_wasm_stack: "II:",
  finite_wasm_unstack: "II:",
  finite_wasm_memory_copy: "iII:i",
  finite_wasm_memory_fill: "iII:i",
  finite_wasm_memory_init: "iII:i",
  finite_wasm_table_copy: "iII:i",
  finite_wasm_table_fill: "iII:i",
  finite_wasm_table_init: "iII:i",
  finite_wasm_gas_exhausted: ":",
  finite_wasm_stack_exhausted: ":",
};

export const IMPORT_SIGNATURES: Readonly<Record<string, Readonly<Record<string, string>>>> = { env: ENV, internal: INTERNAL };

/** 0x7e = i64, 0x7f = i32 (wasm value type bytes) as signature letters. */
export function signatureOf(params: readonly number[], results: readonly number[]): string {
  const letter = (t: number): string => (t === 0x7e ? "I" : t === 0x7f ? "i" : "?");
  return `${params.map(letter).join("")}:${results.map(letter).join("")}`;
}

/** Number of parameters of `env` import `name` (undefined when it is not in the table). */
export function importArity(name: string): number | undefined {
  const signature = ENV[name];
  return signature === undefined ? undefined : signature.indexOf(":");
}
