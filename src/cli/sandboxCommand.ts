import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError, parseFlags } from "./flags.js";
import { usageLine } from "./usageLine.js";

export const sandboxUsage = `Usage: shardkit sandbox [--home DIR] init [--fast] [--num-shards N] [--chain-id ID] [--account-id ID] [--test-seed SEED]
       shardkit sandbox [--home DIR] run [--rpc-addr HOST:PORT] [--network-addr HOST:PORT] [--block-time MS]

nearcore's near-sandbox commands and files, so near-workspaces (JS and Rust) can start shardkit
in its place: point NEAR_SANDBOX_BIN_PATH at \`shardkit sandbox-path\` (docs/near-workspaces.md).

init writes DIR/genesis.json (test.near, the validator and root account, with a fresh random key,
and the treasury near), DIR/validator_key.json (test.near's key), DIR/node_key.json and
DIR/config.json, as \`neard init\` does for a localnet (a DIR that holds them already is kept).
run serves DIR's chain (kept in DIR/data) on one JSON-RPC listener, producing blocks on demand.

Options:
${usageLine("--home DIR", "the node's directory (default ~/.near, as nearcore)")}
${usageLine("--fast", "init: epochs of 60 blocks instead of 500")}
${usageLine("--num-shards N", "init: shards, 1 to 26 (default 1); more split at shard1.test.near, shard2.test.near, ...")}
${usageLine("--chain-id ID", "init: the chain id (default test-chain- and five random characters)")}
${usageLine("--account-id ID", "init: the root account and validator (default test.near)")}
${usageLine("--test-seed SEED", "init: the validator key from this seed, as nearcore's (default: a random key)")}
${usageLine("--rpc-addr HOST:PORT", "run: the JSON-RPC listener (default config.json's rpc.addr, else 0.0.0.0:3030)")}
${usageLine("--network-addr HOST:PORT", "run: accepted for nearcore's sake; shardkit has no peer network")}
${usageLine("--block-time MS", "run: milliseconds between blocks; 0 = on demand (default $SHARDKIT_SANDBOX_BLOCK_TIME_MS, else 0)")}
${usageLine("-h, --help", "show this help")}
`;

const flagSpecs = {
  home: { type: "string" },
  fast: { type: "boolean" },
  "num-shards": { type: "string" },
  "chain-id": { type: "string" },
  "account-id": { type: "string" },
  "test-seed": { type: "string" },
  "rpc-addr": { type: "string" },
  "network-addr": { type: "string" },
  "block-time": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const initOnly = ["fast", "num-shards", "chain-id", "account-id", "test-seed"] as const;
const runOnly = ["rpc-addr", "network-addr", "block-time"] as const;

/** `shardkit sandbox`: near-sandbox's `--home H init` and `--home H run` (flags before or after the subcommand, as neard's clap takes them). */
export async function sandboxCommand(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(sandboxUsage);
    return;
  }
  const { values, positionals } = parseFlags("sandbox", args, flagSpecs);
  const [subcommand, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)} for sandbox`, "sandbox");
  const home = values.home ?? join(homedir(), ".near");
  if (home.trim() === "") throw new UsageError("--home must not be empty", "sandbox");
  const misplaced = (names: readonly (keyof typeof flagSpecs)[], where: string) => {
    const name = names.find((n) => values[n] !== undefined);
    if (name !== undefined) throw new UsageError(`--${name} is an option of \`sandbox ${where}\``, "sandbox");
  };
  switch (subcommand) {
    case "init": {
      misplaced(runOnly, "run");
      const numShards = integerFlag("num-shards", values["num-shards"] ?? "1", 1, 26);
      const { sandboxInit } = await import("./sandboxInit.js");
      await sandboxInit({
        home,
        fast: values.fast === true,
        numShards,
        ...(values["chain-id"] !== undefined && { chainId: values["chain-id"] }),
        ...(values["account-id"] !== undefined && { accountId: values["account-id"] }),
        ...(values["test-seed"] !== undefined && { testSeed: values["test-seed"] }),
      });
      return;
    }
    case "run": {
      misplaced(initOnly, "init");
      const blockTime = values["block-time"] ?? process.env.SHARDKIT_SANDBOX_BLOCK_TIME_MS ?? "0";
      const { sandboxRun } = await import("./sandboxRun.js");
      return sandboxRun({
        home,
        ...(values["rpc-addr"] !== undefined && { rpcAddr: values["rpc-addr"] }),
        blockTimeMs: integerFlag("block-time", blockTime, 0, 3_600_000),
      });
    }
    case undefined:
      throw new UsageError("sandbox needs a subcommand: init or run", "sandbox");
    default:
      throw new UsageError(`unknown sandbox subcommand ${JSON.stringify(subcommand)} (init or run)`, "sandbox");
  }
}

function integerFlag(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`, "sandbox");
  return value;
}
