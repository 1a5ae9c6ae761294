import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_DIR, compileContract, contractNames } from "../../contracts/build.js";

/** nearcore's `env` imports (runtime/near-vm-runner/src/imports.rs) that our contracts may use. */
const NEARCORE_ENV = new Set([
  "read_register",
  "register_len",
  "write_register",
  "current_account_id",
  "signer_account_id",
  "signer_account_pk",
  "predecessor_account_id",
  "input",
  "block_index",
  "block_timestamp",
  "epoch_height",
  "storage_usage",
  "account_balance",
  "account_locked_balance",
  "attached_deposit",
  "prepaid_gas",
  "used_gas",
  "random_seed",
  "sha256",
  "keccak256",
  "keccak512",
  "ripemd160",
  "ecrecover",
  "ed25519_verify",
  "value_return",
  "panic",
  "panic_utf8",
  "log_utf8",
  "log_utf16",
  "abort",
  "promise_create",
  "promise_then",
  "promise_and",
  "promise_batch_create",
  "promise_batch_then",
  "promise_batch_action_create_account",
  "promise_batch_action_deploy_contract",
  "promise_batch_action_function_call",
  "promise_batch_action_function_call_weight",
  "promise_batch_action_transfer",
  "promise_batch_action_stake",
  "promise_batch_action_add_key_with_full_access",
  "promise_batch_action_add_key_with_function_call",
  "promise_batch_action_delete_key",
  "promise_batch_action_delete_account",
  "promise_results_count",
  "promise_result",
  "promise_return",
  "storage_write",
  "storage_read",
  "storage_remove",
  "storage_has_key",
  "validator_stake",
  "validator_total_stake",
]);

const EXPECTED_METHODS: Record<string, string[]> = {
  ft: [
    "ft_balance_of",
    "ft_metadata",
    "ft_resolve_transfer",
    "ft_total_supply",
    "ft_transfer",
    "ft_transfer_call",
    "new",
    "storage_balance_bounds",
    "storage_balance_of",
    "storage_deposit",
    "storage_unregister",
    "storage_withdraw",
  ],
  kv: ["get", "list", "remove", "set"],
  nft: [
    "new",
    "nft_metadata",
    "nft_mint",
    "nft_resolve_transfer",
    "nft_supply_for_owner",
    "nft_token",
    "nft_tokens",
    "nft_tokens_for_owner",
    "nft_total_supply",
    "nft_transfer",
    "nft_transfer_call",
  ],
  "staking-pool": [
    "deposit",
    "deposit_and_stake",
    "get_account",
    "get_account_staked_balance",
    "get_account_total_balance",
    "get_account_unstaked_balance",
    "get_owner_id",
    "get_reward_fee_fraction",
    "get_staking_key",
    "get_total_staked_balance",
    "is_account_unstaked_balance_available",
    "is_staking_paused",
    "new",
    "on_stake_action",
    "ping",
    "stake",
    "stake_all",
    "unstake",
    "unstake_all",
    "withdraw",
    "withdraw_all",
  ],
  relay: [
    "always_fail",
    "echo",
    "forward",
    "ft_on_transfer",
    "join",
    "join_with_failure",
    "nft_on_transfer",
    "on_forward",
    "on_join",
  ],
};

describe("fixture contracts", () => {
  const names = contractNames();

  it("has a committed wasm for each source, with the expected methods", () => {
    expect(names).toEqual(Object.keys(EXPECTED_METHODS).sort());
    for (const name of names) {
      const wasm = readFileSync(join(BUILD_DIR, `${name}.wasm`));
      expect(WebAssembly.validate(wasm)).toBe(true);
      const module = new WebAssembly.Module(wasm);
      const exports = WebAssembly.Module.exports(module);
      expect(
        exports
          .filter((e) => e.kind === "function")
          .map((e) => e.name)
          .sort(),
      ).toEqual(EXPECTED_METHODS[name]);
      expect(exports.filter((e) => e.kind !== "function").map((e) => e.name)).toEqual(["memory"]);
    }
  });

  it("imports only functions of nearcore's env host table", () => {
    for (const name of names) {
      const imports = WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(join(BUILD_DIR, `${name}.wasm`))));
      expect(imports.length).toBeGreaterThan(0);
      for (const i of imports) {
        expect(`${name}: ${i.module}.${i.name} ${i.kind}`).toBe(`${name}: env.${i.name} function`);
        expect(NEARCORE_ENV.has(i.name), `${name} imports env.${i.name}`).toBe(true);
      }
    }
  });

  it("rebuilds kv byte-for-byte from source", async () => {
    const wasm = await compileContract("kv");
    expect(Buffer.from(wasm).equals(readFileSync(join(BUILD_DIR, "kv.wasm")))).toBe(true);
  });
});
