// NEAR `env` host imports (nearcore runtime/near-vm-runner/src/imports.rs). Every parameter is
// a u64 (wasm i64). A (len, ptr) pair names guest memory; u128 values are 16 bytes LE at a ptr.
// asc only imports what a contract calls, so each wasm declares just the functions it uses.

// registers
@external("env", "read_register") export declare function read_register(register_id: u64, ptr: u64): void;
@external("env", "register_len") export declare function register_len(register_id: u64): u64;

// context
@external("env", "current_account_id") export declare function current_account_id(register_id: u64): void;
@external("env", "signer_account_id") export declare function signer_account_id(register_id: u64): void;
@external("env", "predecessor_account_id") export declare function predecessor_account_id(register_id: u64): void;
@external("env", "input") export declare function input(register_id: u64): void;
@external("env", "block_timestamp") export declare function block_timestamp(): u64;
@external("env", "epoch_height") export declare function epoch_height(): u64;
@external("env", "storage_usage") export declare function storage_usage(): u64;

// economics
@external("env", "account_balance") export declare function account_balance(balance_ptr: u64): void;
@external("env", "account_locked_balance") export declare function account_locked_balance(balance_ptr: u64): void;
@external("env", "attached_deposit") export declare function attached_deposit(balance_ptr: u64): void;
@external("env", "prepaid_gas") export declare function prepaid_gas(): u64;
@external("env", "used_gas") export declare function used_gas(): u64;

// misc
@external("env", "value_return") export declare function value_return(value_len: u64, value_ptr: u64): void;
@external("env", "panic_utf8") export declare function panic_utf8(len: u64, ptr: u64): void;
@external("env", "log_utf8") export declare function log_utf8(len: u64, ptr: u64): void;

// storage
@external("env", "storage_write") export declare function storage_write(key_len: u64, key_ptr: u64, value_len: u64, value_ptr: u64, register_id: u64): u64;
@external("env", "storage_read") export declare function storage_read(key_len: u64, key_ptr: u64, register_id: u64): u64;
@external("env", "storage_remove") export declare function storage_remove(key_len: u64, key_ptr: u64, register_id: u64): u64;
@external("env", "storage_has_key") export declare function storage_has_key(key_len: u64, key_ptr: u64): u64;

// promises
@external("env", "promise_create") export declare function promise_create(account_id_len: u64, account_id_ptr: u64, method_name_len: u64, method_name_ptr: u64, arguments_len: u64, arguments_ptr: u64, amount_ptr: u64, gas: u64): u64;
@external("env", "promise_then") export declare function promise_then(promise_index: u64, account_id_len: u64, account_id_ptr: u64, method_name_len: u64, method_name_ptr: u64, arguments_len: u64, arguments_ptr: u64, amount_ptr: u64, gas: u64): u64;
@external("env", "promise_and") export declare function promise_and(promise_idx_ptr: u64, promise_idx_count: u64): u64;
@external("env", "promise_batch_create") export declare function promise_batch_create(account_id_len: u64, account_id_ptr: u64): u64;
@external("env", "promise_batch_then") export declare function promise_batch_then(promise_index: u64, account_id_len: u64, account_id_ptr: u64): u64;
@external("env", "promise_batch_action_transfer") export declare function promise_batch_action_transfer(promise_index: u64, amount_ptr: u64): void;
@external("env", "promise_batch_action_stake") export declare function promise_batch_action_stake(promise_index: u64, amount_ptr: u64, public_key_len: u64, public_key_ptr: u64): void;
@external("env", "promise_batch_action_function_call") export declare function promise_batch_action_function_call(promise_index: u64, method_name_len: u64, method_name_ptr: u64, arguments_len: u64, arguments_ptr: u64, amount_ptr: u64, gas: u64): void;
@external("env", "promise_batch_action_function_call_weight") export declare function promise_batch_action_function_call_weight(promise_index: u64, method_name_len: u64, method_name_ptr: u64, arguments_len: u64, arguments_ptr: u64, amount_ptr: u64, gas: u64, gas_weight: u64): void;
@external("env", "promise_results_count") export declare function promise_results_count(): u64;
@external("env", "promise_result") export declare function promise_result(result_idx: u64, register_id: u64): u64;
@external("env", "promise_return") export declare function promise_return(promise_id: u64): void;
