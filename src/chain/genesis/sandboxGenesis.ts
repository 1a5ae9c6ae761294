import { randomBytes } from "node:crypto";
import { ed25519FromSeed, type Ed25519KeyPair } from "../primitives/ed25519.js";
import { DEFAULT_GAS_LIMIT, DEFAULT_GAS_PRICE, DEFAULT_PROTOCOL_VERSION } from "./GenesisConfig.js";

const NEAR = 10n ** 24n;

/** nearcore's TESTING_INIT_BALANCE: what `neard init` gives the root account and the treasury `near`. */
export const SANDBOX_INIT_BALANCE = 1_000_000_000n * NEAR;
/** nearcore's TESTING_INIT_STAKE: the root account's validator stake (locked, on top of its balance). */
export const SANDBOX_INIT_STAKE = 50_000_000n * NEAR;
/** nearcore's EXPECTED_EPOCH_LENGTH (5 minutes of 600 ms blocks) and FAST_EPOCH_LENGTH (`--fast`). */
export const SANDBOX_EPOCH_LENGTH = 500;
export const SANDBOX_FAST_EPOCH_LENGTH = 60;
/** nearcore's PROTOCOL_TREASURY_ACCOUNT, which `neard init` adds beside the validator. */
export const TREASURY_ACCOUNT = "near";

export interface SandboxGenesisOptions {
  /** The root account, validator and key holder (`neard init --account-id`, default test.near). */
  readonly accountId: string;
  readonly validatorKey: Ed25519KeyPair;
  /** `--fast`: epochs of 60 blocks instead of 500. */
  readonly fast: boolean;
  /** `--num-shards`: more than one splits at shard1.test.near, shard2.test.near, ... as nearcore does. */
  readonly numShards: number;
  readonly chainId: string;
  /** RFC 3339 */
  readonly genesisTime: string;
}

/**
 * nearcore's key from a seed string (`InMemorySigner::from_seed`): the seed's bytes, padded with
 * spaces to 32, are the ed25519 secret. `neard init` keys the treasury `near` this way.
 */
export function keyFromSeedString(seed: string): Ed25519KeyPair {
  const bytes = new Uint8Array(32).fill(0x20);
  bytes.set(new TextEncoder().encode(seed).subarray(0, 32));
  return ed25519FromSeed(bytes);
}

/** A fresh random ed25519 key, as `neard init` makes for the validator each time. */
export function randomKeyPair(): Ed25519KeyPair {
  return ed25519FromSeed(randomBytes(32));
}

/** `test-chain-` and five random letters or digits: the chain id `neard init` picks when given none. */
export function randomChainId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return `test-chain-${Array.from(randomBytes(5), (b) => alphabet[b % alphabet.length]).join("")}`;
}

/**
 * The genesis `neard init` writes for a localnet (nearcore/src/config.rs, init_configs): the
 * validator with 1e9 NEAR and a 5e7 NEAR stake, the treasury `near` with 1e9 NEAR, nothing else.
 * The JSON object of a nearcore genesis file, with the fields shardkit reads and the ones a
 * reader of the file expects to find.
 */
export function sandboxGenesis(options: SandboxGenesisOptions): Record<string, unknown> {
  const treasury = keyFromSeedString(TREASURY_ACCOUNT);
  const account = (amount: bigint, locked: bigint) => ({
    amount: amount.toString(),
    locked: locked.toString(),
    code_hash: "11111111111111111111111111111111",
    storage_usage: 0,
    version: "V1",
  });
  const fullAccess = { nonce: 0, permission: "FullAccess" };
  const records = [
    { Account: { account_id: options.accountId, account: account(SANDBOX_INIT_BALANCE, SANDBOX_INIT_STAKE) } },
    { AccessKey: { account_id: options.accountId, public_key: options.validatorKey.publicKeyString, access_key: fullAccess } },
    { Account: { account_id: TREASURY_ACCOUNT, account: account(SANDBOX_INIT_BALANCE, 0n) } },
    { AccessKey: { account_id: TREASURY_ACCOUNT, public_key: treasury.publicKeyString, access_key: fullAccess } },
  ];
  const boundaries = Array.from({ length: options.numShards - 1 }, (_, i) => `shard${i + 1}.test.near`);
  return {
    protocol_version: DEFAULT_PROTOCOL_VERSION,
    genesis_time: options.genesisTime,
    chain_id: options.chainId,
    genesis_height: 0,
    num_block_producer_seats: 50,
    epoch_length: options.fast ? SANDBOX_FAST_EPOCH_LENGTH : SANDBOX_EPOCH_LENGTH,
    gas_limit: DEFAULT_GAS_LIMIT,
    min_gas_price: DEFAULT_GAS_PRICE.toString(),
    transaction_validity_period: 100,
    validators: [{ account_id: options.accountId, public_key: options.validatorKey.publicKeyString, amount: SANDBOX_INIT_STAKE.toString() }],
    protocol_treasury_account: options.accountId,
    total_supply: (2n * SANDBOX_INIT_BALANCE + SANDBOX_INIT_STAKE).toString(),
    shard_layout:
      options.numShards === 1
        ? { V0: { num_shards: 1, version: 0 } }
        : { V1: { boundary_accounts: boundaries, shards_split_map: null, to_parent_shard_map: null, version: 1 } },
    records,
  };
}
