import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Chain, type ChainOptions, type GenesisLoadProgress } from "../chain/node.js";
import { createLogger, type LogLevel } from "../server/log/Logger.js";
import { startService, type ServiceOptions } from "../server/startService.js";
import { formatNear } from "./formatNear.js";
import { genesisProgressLabel } from "./genesisProgressLabel.js";
import { devAccountsAtHead } from "./printAccounts.js";
import { CatchUpLine, type CatchUpDone } from "./catchUpLine.js";
import { startProgress, type Progress } from "./progressLine.js";
import { shutdownOnSignals } from "./shutdownOnSignals.js";
import { listenError } from "./listenError.js";
import { preparedContractsDir } from "./preparedContractsDir.js";

/** Serves the dev chain `options` describe (from `serve`'s flags) until a signal, logging at `level`. */
export async function runServe(options: ServiceOptions & { apiPort: number }, level: LogLevel): Promise<void> {
  // Log records go to stdout after the start-up lines: readable on a terminal, JSON lines otherwise.
  const format = process.stdout.isTTY ? "pretty" : "json";
  const logger = createLogger({
    level,
    format,
    write: (line) => process.stdout.write(line),
  });
  const genesisFile = options.chain.genesisFile;
  let loadSeconds: number | undefined;
  const loadingLabel = genesisFile === undefined ? "" : `shardkit: loading genesis ${genesisFile} (${megabytes(genesisFile)})`;
  const loading = genesisFile === undefined ? undefined : startProgress(loadingLabel);
  const catchUp = new CatchUpLine(() => (loadSeconds ??= loading?.done()));
  let indexed: CatchUpDone | undefined;
  const service = await startService({
    ...options,
    chain: { preparedContractsDir: preparedContractsDir(), ...options.chain, ...(loading && { onGenesisProgress: genesisProgressTo(loading, loadingLabel) }) },
    logger,
    // A resumed chain is indexed for the REST API in the background, 64 blocks per event-loop turn: requests are answered meanwhile.
    onIndexCatchUp: (height, target) => {
      indexed = catchUp.report("the REST API", height, target) ?? indexed ?? (height < target ? { blocks: target - height, seconds: 0 } : undefined);
    },
    // The transaction history index lives in the data dir: it catches up only when it is missing or behind.
    onHistoryCatchUp: (height, target) => void catchUp.report("the transaction history", height, target),
    // The data dir refused a block (disk full, read-only): nothing half-written; say why and stop.
    // LMDB's C library may have printed "Write error: ..." without a newline: start a line of our own.
    onProductionFailure: (error) => {
      console.error(`\nshardkit: block production stopped: ${error.message}`);
      process.exit(1);
    },
    // A fork's upstream that cannot be read holds the next block back; it is tried again.
    onProductionRetry: (error) => logger.warn("block production waits for the fork upstream", { error: error.message }),
    onInternalError: (method, error) =>
      logger.error("internal error", { method, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    onKeysReport: (message) => (/ reloaded: /.test(message) ? logger.info("keys file", { message }) : logger.warn("keys file", { message })),
  })
    .catch((error: unknown) => {
      throw listenError(error, options, "serve") ?? error;
    })
    .finally(() => (loadSeconds ??= loading?.done()));
  const { chain } = service;
  shutdownOnSignals(service);
  const loaded = loadSeconds === undefined ? "" : ` (loaded from ${genesisFile} in ${loadSeconds.toFixed(1)} s)`;
  console.log(`shardkit: chain ${chain.chainId}, ${chain.shardLayout.numShards} shards, genesis ${chain.genesisBlock.hash}${loaded}`);
  const dataDir = options.chain.dataDir;
  const resumed = chain.resumedAtHeight === undefined ? "new chain" : `resumed at height ${chain.resumedAtHeight}`;
  console.log(dataDir === undefined ? "  data dir      none (--ephemeral: kept in memory, lost on exit)" : `  data dir      ${resolve(dataDir)}  (${resumed})`);
  if (chain.fork !== undefined) console.log(`  fork of       ${chain.fork.url} at block ${chain.fork.height} (${chain.fork.blockHash})`);
  console.log(`  regular RPC   ${service.rpcUrl}  (last ${options.retention} blocks)`);
  console.log(`  archival RPC  ${service.archivalUrl}`);
  const caughtUp = indexed === undefined ? "" : `; ${indexed.blocks} blocks indexed in ${indexed.seconds.toFixed(1)} s`;
  console.log(`  REST API      ${service.apiUrl}/v1  (account data, indexed from every block${caughtUp})`);
  if (service.metricsUrl !== undefined) console.log(`  metrics       ${service.metricsUrl}  (Prometheus)`);
  if (chain.devAccounts.length > 0) {
    console.log("dev accounts (secret seed = sha256(\"shardkit-dev:\" + account_id)):");
    const head = chain.head();
    for (const account of chain.devAccounts) {
      const balance = chain.at(head).account(account.accountId)?.amount;
      const near = balance === undefined ? "" : `  ${formatNear(balance)} NEAR`;
      console.log(`  ${account.accountId.padEnd(18)} shard ${chain.shardOf(account.accountId)}  ${account.publicKey}  ${account.secretKey}${near}`);
    }
  }
  // Machines reading the JSON lines get the listeners as a record too (a terminal has the lines above).
  if (format === "json") {
    logger.info("serving", {
      chain_id: chain.chainId,
      shards: chain.shardLayout.numShards,
      genesis_hash: chain.genesisBlock.hash,
      rpc_url: service.rpcUrl,
      archival_url: service.archivalUrl,
      api_url: service.apiUrl,
      ...(service.metricsUrl !== undefined && { metrics_url: service.metricsUrl }),
    });
  }
}

/**
 * `serve --print-accounts`: the dev accounts of the chain these flags would serve, as JSON, without
 * serving. A data dir that does not exist yet is not created (the chain is built in memory).
 */
export async function printAccounts(options: ChainOptions): Promise<void> {
  const { dataDir, ...inMemory } = options;
  const chain = await Chain.open(dataDir !== undefined && existsSync(dataDir) ? options : inMemory);
  try {
    process.stdout.write(`${JSON.stringify(devAccountsAtHead(chain), null, 2)}\n`);
  } finally {
    await chain.close();
  }
}

/** Draws each genesis load progress report on the progress line, a new phase at once. */
function genesisProgressTo(line: Progress, label: string): (progress: GenesisLoadProgress) => void {
  let phase: GenesisLoadProgress["phase"] | undefined;
  return (progress) => {
    line.update(`${label}: ${genesisProgressLabel(progress)}`, progress.phase !== phase);
    phase = progress.phase;
  };
}

/** A file's size for the progress line ("160.2 MB"), or "?" when it cannot be read (the load reports why). */
function megabytes(file: string): string {
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  return size === undefined ? "size unknown" : `${(size / 1e6).toFixed(1)} MB`;
}
