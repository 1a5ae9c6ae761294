import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { keyFromSeedString, randomChainId, randomKeyPair, sandboxGenesis } from "../chain/genesis/sandboxGenesis.js";
import { isValidAccountId } from "@shardkit/primitives/accountId";
import type { Ed25519KeyPair } from "../chain/primitives/ed25519.js";
import { UsageError } from "./flags.js";

export interface SandboxInitOptions {
  readonly home: string;
  readonly fast: boolean;
  readonly numShards: number;
  readonly chainId?: string;
  readonly accountId?: string;
  /** `--test-seed`: the validator key from this seed string (nearcore's from_seed) instead of a random one. */
  readonly testSeed?: string;
}

/** The nearcore key file shape (validator_key.json, node_key.json). */
const keyFile = (accountId: string, key: Ed25519KeyPair) => ({ account_id: accountId, public_key: key.publicKeyString, secret_key: key.secretKeyString });

/**
 * `sandbox init`: the files `neard init` writes for a localnet, each with a fresh random key.
 * A home that already holds config.json and genesis.json is kept as it is, as nearcore does.
 */
export async function sandboxInit(options: SandboxInitOptions): Promise<void> {
  const home = resolve(options.home);
  const accountId = options.accountId ?? "test.near";
  if (!isValidAccountId(accountId)) throw new UsageError(`--account-id ${JSON.stringify(accountId)} is not a valid account id`, "sandbox");
  if (existsSync(join(home, "config.json")) && existsSync(join(home, "genesis.json"))) {
    process.stdout.write(`shardkit: ${home} already holds config.json and genesis.json; kept as they are\n`);
    return;
  }
  await mkdir(home, { recursive: true });
  const validatorKey = options.testSeed === undefined ? randomKeyPair() : keyFromSeedString(options.testSeed);
  const genesis = sandboxGenesis({
    accountId,
    validatorKey,
    fast: options.fast,
    numShards: options.numShards,
    chainId: options.chainId ?? randomChainId(),
    genesisTime: new Date().toISOString(),
  });
  const config = {
    genesis_file: "genesis.json",
    validator_key_file: "validator_key.json",
    node_key_file: "node_key.json",
    rpc: { addr: "0.0.0.0:3030" },
    network: { addr: "0.0.0.0:24567" },
    tracked_shards: [0],
    // nearcore's block production delays (`--fast`: its FAST_* ones); `run` moves a fast-forward's clock by their mean per block.
    consensus: options.fast
      ? { min_block_production_delay: { secs: 0, nanos: 120_000_000 }, max_block_production_delay: { secs: 0, nanos: 500_000_000 } }
      : { min_block_production_delay: { secs: 0, nanos: 600_000_000 }, max_block_production_delay: { secs: 2, nanos: 0 } },
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(home, "config.json"), json(config));
  await writeFile(join(home, "genesis.json"), json(genesis));
  await writeFile(join(home, "validator_key.json"), json(keyFile(accountId, validatorKey)), { mode: 0o600 });
  await writeFile(join(home, "node_key.json"), json(keyFile("node", randomKeyPair())), { mode: 0o600 });
  process.stdout.write(`shardkit: node key, validator key (${accountId}) and genesis (${String(genesis["chain_id"])}) written to ${home}\n`);
}
