import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ChainOptions } from "../chain/node.js";
import { HoldingListener } from "../server/http/HoldingListener.js";
import type { Service } from "../server/startService.js";
import { UsageError } from "./flags.js";
import { shutdownOnSignals } from "./shutdownOnSignals.js";
import { preparedContractsDir } from "./preparedContractsDir.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

export interface SandboxRunOptions {
  readonly home: string;
  readonly rpcAddr?: string;
  readonly blockTimeMs: number;
}

/**
 * `sandbox run`: serves the home's chain on the one JSON-RPC listener near-workspaces talks to.
 * The first run builds the chain from DIR/genesis.json into DIR/data; later runs resume it.
 * There is no REST listener, and the archival listener takes any free port.
 *
 * Start-up is what a near-workspaces test waits for on every `Worker.init()`, so the listener is
 * bound first (its requests are held until the chain can answer them: the readiness poll is
 * answered then, not at its next 250 ms tick), and the chain opens while the server's code loads.
 */
export async function sandboxRun(options: SandboxRunOptions): Promise<void> {
  const home = resolve(options.home);
  const genesisFile = join(home, "genesis.json");
  if (!existsSync(genesisFile)) throw new UsageError(`${home} has no genesis.json; run \`shardkit sandbox --home ${options.home} init\` first`, "sandbox");
  const { host, port } = parseAddr(options.rpcAddr ?? configRpcAddr(home) ?? "0.0.0.0:3030");
  const cannotListen = (error: unknown) => {
    const code = isJsonObject(error) ? error.code : undefined;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") throw new UsageError(`cannot listen on --rpc-addr ${host}:${port} (${String(code)})`, "sandbox");
    throw error;
  };
  const rpcListener = await HoldingListener.open(host, port).catch(cannotListen);
  const dataDir = join(home, "data");
  // A data dir that exists holds the chain of an earlier run: resume it.
  const chainOptions = { blockTimeMs: options.blockTimeMs, dataDir, preparedContractsDir: preparedContractsDir(), ...(!existsSync(dataDir) && { genesisFile }) };
  const starting = startSandboxService(host, port, rpcListener, chainOptions, fastForwardStepMs(home)).catch(async (error: unknown) => {
    await rpcListener.close();
    return cannotListen(error);
  });
  // Held requests are answered as soon as the service can, before `starting` resolves: a signal from
  // then on (near-workspaces' teardown is a SIGINT) must already close it cleanly.
  shutdownOnSignals({ close: async () => (await starting).close() });
  const service = await starting;
  console.log(`shardkit sandbox: chain ${service.chain.chainId} from ${home} on ${service.rpcUrl}`);
}

/** Opens the chain and serves it on `rpcListener`, the chain's code first: its genesis build waits on worker threads, and the server's code loads meanwhile. */
async function startSandboxService(host: string, port: number, rpcListener: HoldingListener, chainOptions: ChainOptions, stepMs: number): Promise<Service> {
  const { Chain } = await import("../chain/node.js");
  const opening = Chain.open(chainOptions);
  const [chain, { startService }, { createLogger }] = await Promise.all([opening, import("../server/startService.js"), import("../server/log/Logger.js")]).catch(
    async (error: unknown) => {
      // A chain that opened while the rest failed is closed (its data dir's writer lock released).
      await opening.then((opened) => opened.close()).catch(() => {});
      throw error;
    },
  );
  const logger = createLogger({ level: "warn", format: "json", write: (line) => process.stdout.write(line) });
  return startService({
    host,
    rpcPort: port,
    rpcListener,
    archivalPort: 0,
    retention: 1000,
    logger,
    chain: chainOptions,
    openedChain: chain,
    fastForwardStepMs: stepMs,
    onProductionFailure: (error) => {
      console.error(`shardkit: block production stopped: ${error.message}`);
      process.exit(1);
    },
    onInternalError: (method, error) => logger.error("internal error", { method, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  });
}

/** config.json's rpc.addr, when the file has one. */
/** The home's config.json as a JSON object (empty when it is missing or not an object). */
function homeConfig(home: string): Record<string, unknown> {
  try {
    const config: unknown = JSON.parse(readFileSync(join(home, "config.json"), "utf8"));
    return isJsonObject(config) ? config : {};
  } catch {
    return {};
  }
}

/** `section.key` of the home's config.json, if the section is an object. */
function configField(home: string, section: string, key: string): unknown {
  const value = homeConfig(home)[section];
  return isJsonObject(value) ? value[key] : undefined;
}

function configRpcAddr(home: string): string | undefined {
  const addr = configField(home, "rpc", "addr");
  return typeof addr === "string" ? addr : undefined;
}

/** A nearcore Duration (`{secs, nanos}`) in ms, or undefined. */
function durationMs(value: unknown): number | undefined {
  if (!isJsonObject(value)) return undefined;
  const { secs, nanos } = value;
  return typeof secs === "number" && typeof nanos === "number" ? secs * 1000 + nanos / 1e6 : undefined;
}

/**
 * The chain time one fast-forwarded block adds: nearcore's sandbox moves its clock by the mean
 * of the config's min and max block production delays per skipped height (600 ms and 2 s by
 * default).
 */
export function fastForwardStepMs(home: string): number {
  const min = durationMs(configField(home, "consensus", "min_block_production_delay")) ?? 600;
  const max = durationMs(configField(home, "consensus", "max_block_production_delay")) ?? 2000;
  return (min + max) / 2;
}

/** "HOST:PORT" (IPv6 as "[::1]:PORT"). */
export function parseAddr(text: string): { host: string; port: number } {
  const [, bracketed, plain, digits] = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text) ?? [];
  const host = bracketed ?? plain;
  const port = Number(digits);
  if (host === undefined || digits === undefined || port > 65535) throw new UsageError(`--rpc-addr must be HOST:PORT, got ${JSON.stringify(text)}`, "sandbox");
  return { host, port };
}
