import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { randomChainId, randomKeyPair, sandboxGenesis } from "../chain/genesis/sandboxGenesis.js";
import { isValidAccountId } from "../chain/primitives/accountId.js";
import type { Ed25519KeyPair } from "../chain/primitives/ed25519.js";
import { UsageError } from "./flags.js";

export interface SandboxInitOptions {
  readonly home: string;
  readonly fast: boolean;
  readonly numShards: number;
  readonly chainId?: string;
  readonly accountId?: string;
}

/** The nearcore key file shape (validator_key.json, node_key.json). */
const keyFile = (accountId: string, key: Ed25519KeyPair) => ({ account_id: accountId, public_key: key.publicKeyString, secret_key: key.secretKeyString });

/**
 * `sandbox init`: the files `neard init` writes for a localnet, each with a fresh random key.
 * A home that already holds a genesis is left alone and refused (nearcore keeps it too).
 */
export async function sandboxInit(options: SandboxInitOptions): Promise<void> {
  const home = resolve(options.home);
  const accountId = options.accountId ?? "test.near";
  if (!isValidAccountId(accountId)) throw new UsageError(`--account-id ${JSON.stringify(accountId)} is not a valid account id`, "sandbox");
  if (existsSync(join(home, "genesis.json"))) throw new UsageError(`${home} already holds a genesis.json; init a new directory`, "sandbox");
  await mkdir(home, { recursive: true });
  const validatorKey = randomKeyPair();
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
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(home, "config.json"), json(config));
  await writeFile(join(home, "genesis.json"), json(genesis));
  await writeFile(join(home, "validator_key.json"), json(keyFile(accountId, validatorKey)), { mode: 0o600 });
  await writeFile(join(home, "node_key.json"), json(keyFile("node", randomKeyPair())), { mode: 0o600 });
  process.stdout.write(`shardkit: node key, validator key (${accountId}) and genesis (${String(genesis["chain_id"])}) written to ${home}\n`);
}
