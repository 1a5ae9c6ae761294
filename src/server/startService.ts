import type { IncomingMessage, Server } from "node:http";
import { performance } from "node:perf_hooks";
import { closeServer, listenOn } from "./http/serverLifecycle.js";
import { rmSync } from "node:fs";
import type { Chain, ChainOptions } from "../chain/node.js";
import { LmdbChainStore } from "../chain/store/LmdbChainStore.js";
import { ChainSession, REST_INDEX_DIR, type ChainSessionOptions } from "./ChainSession.js";
import { InternalError } from "./errors.js";
import { forkOfReset, type ResetOutcome, type ResetRequest } from "./resetRequest.js";
import { DevChainControl } from "../chain/sandbox/DevChainControl.js";
import { BlockIndexer } from "../indexer/BlockIndexer.js";
import { join } from "node:path";
import type { HistoryFollower } from "../indexer/history/HistoryIndexer.js";
import type { HistoryStore } from "../indexer/history/HistoryStore.js";
import { LmdbHistoryStore } from "../indexer/history/LmdbHistoryStore.js";
import { MemoryHistoryStore } from "../indexer/history/MemoryHistoryStore.js";
import { idleBlockRowOf } from "../indexer/history/historyBlockRow.js";
import { DEFAULT_VIEW_TIMEOUT_MS, ViewBudget } from "./rpc/query/ViewBudget.js";
import { ftBalanceReaderFrom, viewCallOf, type FtBalanceReader } from "../indexer/FtBalanceReader.js";
import { MemoryIndexStore } from "../indexer/MemoryIndexStore.js";
import { clientAddressOf } from "./http/clientAddress.js";
import { AccessControl } from "./http/AccessControl.js";
import { createRpcListener } from "./http/createRpcListener.js";
import { KeyRing } from "./http/keyRing.js";
import { KeysFileWatcher } from "./http/KeysFileWatcher.js";
import type { HoldingListener } from "./http/HoldingListener.js";
import { createRpcProcessor } from "./jsonrpc/processRequest.js";
import type { RpcContext } from "./rpc/context.js";
import { rpcHandlers } from "./rpc/handlers.js";
import { silentLogger, type Logger } from "./log/Logger.js";
import { logOutcomes } from "./log/outcomeLog.js";
import { logRequests, rpcDetails, type RequestDetails } from "./log/requestLog.js";
import { rpcMethodLabel } from "./metrics/rpcMethodLabel.js";
import type { ServiceMetrics } from "./metrics/ServiceMetrics.js";
import { restRouteLabel, rpcGetLabel } from "./metrics/requestLabels.js";

export interface ServiceOptions {
  host: string;
  /** Regular listener port (0 = any free port). */
  rpcPort: number;
  /** Archival listener port (0 = any free port). */
  archivalPort: number;
  /** Blocks whose state and bodies the regular listener serves. */
  retention: number;
  chain: ChainOptions;
  /** The chain already opened from `chain` (served as it is, and closed with the service); without it the service opens one. */
  openedChain?: Chain;
  /** The regular listener, bound beforehand (`rpcPort` is then unused): requests it holds are answered once the service is ready. */
  rpcListener?: HoldingListener;
  /** REST listener port (0 = any free port); without one, no REST listener. */
  apiPort?: number;
  /** Prometheus `/metrics` listener port (0 = any free port); without one, no metrics are kept. */
  metricsPort?: number;
  /** Keys file (hashes, see `shardkit keys`), reloaded on change; without one, requests that present a key are refused. */
  keysFile?: string;
  /** Requests per minute per client address on the public path (no key); unset = no cap. */
  publicRatePerMinute?: number;
  /** `--trust-proxy` CIDRs: from these peers keyless caps count the X-Forwarded-For client (clientAddress.ts). */
  trustProxy?: readonly string[];
  /** Reads FT balances from token contracts for the REST index (the VM's view calls); without one, balances are null. */
  ftBalances?: FtBalanceReader;
  /** Keys file reloads and problems (never a key). */
  onKeysReport?: (message: string) => void;
  maxBodyBytes?: number;
  maxJsonDepth?: number;
  /** How long transaction methods wait before TIMEOUT_ERROR (nearcore polls for 10 s). */
  txTimeoutMs?: number;
  /** Wall-clock budget of one `query` call_function (default 1000; nearcore's VM has none, ours 3 s). */
  viewTimeoutMs?: number;
  /**
   * A block the chain store refused to commit (disk full, read-only data dir): production has
   * stopped and reads still serve the committed chain. Without it the error is thrown out of
   * the block timer, which ends the process.
   */
  onProductionFailure?: (error: Error) => void;
  /** Receives a production that waits for a fork's upstream (tried again shortly). */
  onProductionRetry?: (error: Error) => void;
  /** Chain time one sandbox_fast_forward block adds (DevChainOptions.fastForwardStepMs). */
  fastForwardStepMs?: number;
  /** Receives unexpected handler failures (a bug, never bad input). */
  onInternalError?: (method: string, error: unknown) => void;
  /** The REST index catching up with a resumed chain (see BlockIndexerOptions.onCatchUp). */
  onIndexCatchUp?: (indexedHeight: number, targetHeight: number) => void;
  /** The transaction history index catching up with the chain (see HistoryIndexerOptions.onCatchUp). */
  onHistoryCatchUp?: (indexedHeight: number, targetHeight: number) => void;
  /** A fault to inject (tests): the history worker of a data dir fails at the block of this height. */
  historyWorkerFailAt?: number;
  /** Request lines (debug), receipt outcomes (info), failing commit subscribers (error); default: the last of these, on stderr. */
  logger?: Logger;
}

export interface Service {
  /** The chain served now (a new one after shardkit_reset). */
  readonly chain: Chain;
  rpcUrl: string;
  archivalUrl: string;
  /** The REST listener, when `apiPort` was given. */
  apiUrl: string | undefined;
  /** The metrics listener (`…/metrics`), when `metricsPort` was given. */
  metricsUrl: string | undefined;
  /** The REST index, following the chain (a new one after each shardkit_revert). */
  readonly indexer: BlockIndexer;
  /**
   * The transaction history index (`/v0`), following the chain. On a durable chain a worker
   * thread builds it into `<data-dir>/history` (rewound after each shardkit_revert); otherwise
   * it is in memory, built in this thread (a new indexer after each revert).
   */
  readonly historyIndexer: HistoryFollower;
  /** Snapshots, reverts, state patches and fast-forwards of the chain (the sandbox_* and shardkit_* methods). */
  readonly devChain: DevChainControl;
  /** shardkit_reset: a new chain (forked or not) in place of this one; `chain` and the indexes follow. */
  reset(request: ResetRequest): Promise<ResetOutcome>;
  close(): Promise<void>;
}

/** nearcore's default `json_payload_max_size`. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_JSON_DEPTH = 64;
export const DEFAULT_TX_TIMEOUT_MS = 10_000;
/** Reported by the REST /status `version`. */
export const SERVICE_VERSION = "0.1.0";

/** Opens the chain and serves it on a regular and an archival JSON-RPC listener. */
export async function startService(options: ServiceOptions): Promise<Service> {
  const logger = options.logger ?? silentLogger;
  const sessionOptions: ChainSessionOptions = {
    ftBalances: options.ftBalances,
    onIndexCatchUp: options.onIndexCatchUp,
    onHistoryCatchUp: options.onHistoryCatchUp,
    historyWorkerFailAt: options.historyWorkerFailAt,
    onProductionFailure: options.onProductionFailure,
    onProductionRetry: options.onProductionRetry,
    fastForwardStepMs: options.fastForwardStepMs,
    logger,
    // A failing block-commit subscriber (the REST indexer, the outcome log) is an error line naming it.
    logSubscriberFailures: options.logger !== undefined,
  };
  /** The chain served now and what follows it (replaced by shardkit_reset). */
  let session = await ChainSession.open(options.chain, sessionOptions, options.openedChain);
  const keysWatcher = options.keysFile === undefined ? undefined : KeysFileWatcher.open(options.keysFile, options.onKeysReport);
  const access = new AccessControl(
    keysWatcher === undefined ? () => KeyRing.EMPTY : () => keysWatcher.current(),
    {
      ...(options.publicRatePerMinute !== undefined && { publicRatePerMinute: options.publicRatePerMinute }),
      clientAddress: clientAddressOf(options.trustProxy ?? []),
    },
  );
  let stopping = false;
  let resetting = false;

  /** shardkit_reset: the fork block is asked for first, so a failure leaves the chain as it was. */
  const reset = async (request: ResetRequest): Promise<ResetOutcome> => {
    if (resetting) throw new InternalError("a shardkit_reset is already running");
    resetting = true;
    try {
      const fork = await forkOfReset(session.chain, options.chain, request);
      // A fork takes no genesis of its own; a chain of its own keeps the one serve started with.
      const { fork: _served, genesisFile, genesisTimeMs, ...rest } = options.chain;
      const chainOptions: ChainOptions =
        fork !== undefined
          ? { ...rest, fork }
          : { ...rest, ...(genesisFile !== undefined && { genesisFile }), ...(genesisTimeMs !== undefined && { genesisTimeMs }) };
      await session.close();
      const dataDir = options.chain.dataDir;
      if (dataDir !== undefined) {
        LmdbChainStore.removeChain(dataDir);
        for (const index of ["history", REST_INDEX_DIR]) rmSync(join(dataDir, index), { recursive: true, force: true });
      }
      session = await ChainSession.open(chainOptions, sessionOptions);
      if (!stopping) session.start();
      const head = session.chain.head();
      const point = session.chain.fork;
      return { head, fork: point === undefined ? null : { url: point.url, block_height: point.height, block_hash: point.blockHash } };
    } finally {
      resetting = false;
    }
  };
  const startedAtMs = Date.now();
  const views = new ViewBudget(options.viewTimeoutMs ?? DEFAULT_VIEW_TIMEOUT_MS);
  const servers: Server[] = [];
  // prom-client is loaded only when metrics are asked for.
  const metrics = options.metricsPort === undefined ? undefined : new (await import("./metrics/ServiceMetrics.js")).ServiceMetrics();
  const stopChainMetrics = metrics === undefined ? () => {} : chainMetrics(metrics, () => session);
  /** The JSON-RPC method of each request, for its metric labels (kept only with metrics on). */
  const methods = new WeakMap<IncomingMessage, string>();

  const listen = async (port: number, archival: boolean): Promise<string> => {
    // The address is known only after listen(); the context reads it lazily.
    // The chain and its controls are read per request: a reset replaces them.
    const context: RpcContext = {
      get chain() {
        return session.chain;
      },
      archival,
      retention: options.retention,
      rpcAddr: "",
      startedAtMs,
      txTimeoutMs: options.txTimeoutMs ?? DEFAULT_TX_TIMEOUT_MS,
      views,
      get devChain() {
        return session.devChain;
      },
      reset,
    };
    const process = createRpcProcessor({
      handlers: rpcHandlers,
      context,
      maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
      // Every new block, state patch and revert replaces the head: cached state reads go with it.
      cache: { generation: () => session.chain.head() },
      ...(options.onInternalError && { onInternalError: options.onInternalError }),
    });
    // At debug, each request's log line names its JSON-RPC method and error cause.
    const details: RequestDetails | undefined = logger.enabled("debug") ? new WeakMap() : undefined;
    const server = createRpcListener({
      process:
        details === undefined
          ? metrics === undefined
            ? process
            : (body, req) => (methods.set(req, rpcMethodLabel(body)), process(body))
          : (body, req) => {
              if (metrics !== undefined) methods.set(req, rpcMethodLabel(body));
              const reply = process(body);
              if (reply instanceof Promise) return reply.then((r) => (details.set(req, rpcDetails(body, r.body)), r));
              details.set(req, rpcDetails(body, reply.body));
              return reply;
            },
      // nearcore's GET /status and /health answer the bare result, not a JSON-RPC envelope.
      get: async (path) => {
        const result = path === "/status" ? await rpcHandlers.status({}, context) : await rpcHandlers.health({}, context);
        return { status: 200, body: JSON.stringify(result) };
      },
      access,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    });
    logRequests(server, archival ? "archival" : "rpc", logger, details);
    metrics?.observe(server, archival ? "archival" : "rpc", (req) => methods.get(req) ?? rpcGetLabel(req));
    const url = archival || options.rpcListener === undefined ? await bind(server, port) : served(server, options.rpcListener);
    context.rpcAddr = url.slice("http://".length).replace(/^\[(.*)\]/, "$1");
    return url;
  };

  const bind = (server: Server, port: number): Promise<string> => {
    servers.push(server);
    return listenOn(server, port, options.host);
  };
  const served = (server: Server, bound: HoldingListener): string => {
    servers.push(bound.server);
    bound.serve(server);
    return bound.url;
  };

  const stopAll = async () => {
    stopping = true;
    stopChainMetrics();
    session.chain.stop();
    keysWatcher?.close();
    await Promise.all(servers.map((server) => closeServer(server)));
    await session.close(); // flushes and releases an on-disk chain store
  };

  try {
    const rpcUrl = await listen(options.rpcPort, false);
    const archivalUrl = await listen(options.archivalPort, true);
    let apiUrl: string | undefined;
    if (options.apiPort !== undefined) {
      // The REST listener's code (routes, validators, handlers) is loaded only when it is asked for.
      const [{ createServiceRestListener }, { restHandlers }] = await Promise.all([import("./http/createServiceRestListener.js"), import("./rest/handlers.js")]);
      const restServer = createServiceRestListener({
        handlers: restHandlers,
        index: () => session.indexer.store,
        history: () => session.historyIndexer.store,
        headHeight: () => session.chain.head().height,
        version: SERVICE_VERSION,
        access,
        ...(options.onInternalError && { onInternalError: options.onInternalError }),
      });
      logRequests(restServer, "rest", logger);
      metrics?.observe(restServer, "rest", restRouteLabel);
      apiUrl = await bind(restServer, options.apiPort);
    }
    let metricsUrl: string | undefined;
    if (metrics !== undefined && options.metricsPort !== undefined) {
      const { createMetricsListener } = await import("./metrics/createMetricsListener.js");
      metricsUrl = `${await bind(createMetricsListener(metrics), options.metricsPort)}/metrics`;
    }
    session.start();
    return {
      get chain() {
        return session.chain;
      },
      rpcUrl,
      archivalUrl,
      apiUrl,
      metricsUrl,
      get indexer() {
        return session.indexer;
      },
      get historyIndexer() {
        return session.historyIndexer;
      },
      get devChain() {
        return session.devChain;
      },
      reset,
      close: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Seconds between blocks: on-demand blocks come in bursts, timed blocks every --block-time. */
const BLOCK_INTERVAL_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 5, 10, 30];
/** Seconds one block takes to produce and commit: an empty block well under a millisecond, a full one tens of ms. */
const BLOCK_PRODUCTION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/**
 * The chain's and the index's metrics, read from the session served now; returns the
 * unsubscribe. Per-block figures follow each new chain (a reset) from its first block.
 */
function chainMetrics(metrics: ServiceMetrics, current: () => ChainSession): () => void {
  const chain = () => current().chain;
  const indexHeight = () => current().indexer.store.height;
  metrics.gauge("shardkit_chain_head_height", "Height of the chain's head block (optimistic)", [], () => chain().head().height);
  metrics.gauge("shardkit_chain_final_height", "Height of the chain's last final block", [], () => chain().blockByFinality("final").height);
  metrics.gauge("shardkit_index_height", "Last block the REST index applied", [], indexHeight);
  metrics.gauge("shardkit_index_lag_blocks", "Blocks between the chain head and the REST index", [], () => {
    const indexed = indexHeight();
    return indexed === null ? null : Math.max(0, chain().head().height - indexed);
  });
  metrics.gauge("shardkit_tx_pool_size", "Transactions accepted and waiting for a block", [], () => chain().producer.poolSize);
  metrics.gauge("shardkit_fork_upstream_requests", "Requests a fork made to its upstream since it opened (each a cache miss); none without a fork", [], () => chain().upstreamState?.calls ?? null);
  const production = metrics.histogram("shardkit_block_production_seconds", "Wall-clock seconds to produce and commit one block", BLOCK_PRODUCTION_BUCKETS);
  const blocks = metrics.counter("shardkit_blocks_produced_total", "Blocks committed by this process");
  const interval = metrics.histogram("shardkit_block_interval_seconds", "Wall-clock seconds between two committed blocks", BLOCK_INTERVAL_BUCKETS);
  let last: number | undefined;
  let subscribed: Chain | undefined;
  let unsubscribe = () => {};
  // Subscribes to the session's chain, again after a reset (checked on each scrape and block).
  const follow = () => {
    const now = chain();
    if (now === subscribed) return;
    unsubscribe();
    subscribed = now;
    const offProduction = now.onBlock(() => production.observe(now.producer.lastBlockProductionMs / 1000));
    const offCommits = now.onBlockCommit(() => {
      const t = performance.now();
      blocks.inc();
      if (last !== undefined) interval.observe((t - last) / 1000);
      last = t;
    }, "metrics");
    unsubscribe = () => {
      offProduction();
      offCommits();
    };
  };
  follow();
  const timer = setInterval(follow, 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}
