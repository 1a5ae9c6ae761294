#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startService } from "../server/startService.js";
import { keysCommand } from "./keysCommand.js";
import { serveFlags, serveOptionsFrom, type ServeFlagName } from "./serveOptions.js";

const usage = `Usage: shardkit <command> [options]

Commands:
  serve              run a local NEAR-compatible JSON-RPC node on a dev chain
  keys <action>      manage API keys: add, list, revoke, rotate (\`shardkit keys help\`)
  generate [--check] regenerate generated/ from specs/ (--check: fail listing stale files)

Options of serve:
${Object.entries(serveFlags)
  .map(([name, flag]) => `  --${name.padEnd(15)} ${flag.help}${flag.default === undefined ? "" : ` (default ${flag.default})`}`)
  .join("\n")}
  --ephemeral        keep the chain in memory only (currently the only storage mode)
`;

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      ...Object.fromEntries(Object.keys(serveFlags).map((name) => [name, { type: "string" as const }])),
      ephemeral: { type: "boolean" },
    },
    strict: true,
  });
  const options = serveOptionsFrom(values as Partial<Record<ServeFlagName, string>>);
  const service = await startService({
    ...options,
    onInternalError: (method, error) => console.error(`internal error in ${method}:`, error),
    onKeysReport: (message) => console.error(`shardkit: ${message}`),
  });
  const { chain } = service;
  console.log(`shardkit: chain ${chain.chainId}, ${chain.shardLayout.numShards} shards, genesis ${chain.genesisBlock.hash}`);
  console.log(`  regular RPC   ${service.rpcUrl}  (last ${options.retention} blocks)`);
  console.log(`  archival RPC  ${service.archivalUrl}`);
  console.log(`  REST API      ${service.apiUrl}/v1  (account data, indexed from every block)`);
  if (chain.devAccounts.length > 0) {
    console.log("dev accounts (secret seed = sha256(\"shardkit-dev:\" + account_id)):");
    for (const account of chain.devAccounts) {
      console.log(`  ${account.accountId.padEnd(18)} shard ${chain.shardOf(account.accountId)}  ${account.publicKey}  ${account.secretKey}`);
    }
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`shardkit: ${signal}, shutting down`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

/** Runs the generators from the source checkout this CLI belongs to (a developer command). */
function generate(args: string[]): void {
  const root = findPackageRoot();
  const entry = join(root, "generators", "main.ts");
  if (!existsSync(entry)) throw new Error(`generate needs the shardkit source checkout (no ${entry})`);
  const result = spawnSync(process.execPath, ["--import", "tsx", entry, ...args], { cwd: root, stdio: "inherit" });
  process.exitCode = result.status ?? 1;
}

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the shardkit package root");
    dir = parent;
  }
  return dir;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve(rest);
    case "keys":
      return keysCommand(rest);
    case "contract-test":
      return (await import("./contractTestCommand.js")).contractTestCommand(rest);
    case "generate":
      return generate(rest);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(usage);
      return;
    default:
      throw new Error(`unknown command ${JSON.stringify(command)}\n\n${usage}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`shardkit: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
