import type { ShardLayout } from "../../chain/shards/ShardLayout.js";
import { HistoryBuilder } from "../history/HistoryBuilder.js";
import type { PostgresHistoryStore } from "../history/PostgresHistoryStore.js";
import { IndexBuilder, UNCAPPED_BALANCE_READS } from "../IndexBuilder.js";
import type { PostgresIndexStore } from "../postgres/PostgresIndexStore.js";
import { gasPurchasePrice } from "../../chain/runtime/gasPricing.js";
import { historyInputFromRpc, shardLayoutFromView } from "./historyInputFromRpc.js";
import { UpstreamBlockSource } from "./UpstreamBlockSource.js";
import { callUpstream, type UpstreamCall } from "./UpstreamRpc.js";

export interface UpstreamFollowerOptions {
  /** The upstream nearcore RPC. */
  readonly call: UpstreamCall;
  /** Named in log lines (never a credential: pass the URL without its key). */
  readonly upstreamName: string;
  readonly store: PostgresIndexStore;
  /** The transaction history (`/v0`), written in each block's transaction with its REST rows. */
  readonly history?: PostgresHistoryStore;
  /** Height a fresh index starts at (default: the upstream's genesis height, indexed from its state). */
  readonly startHeight?: number;
  /** Delay between polls of the upstream's final head once caught up (default 300 ms). */
  readonly pollMs?: number;
  /** Upstream calls in flight at most per block step (default 8). */
  readonly concurrency?: number;
  /** Retry delays after a failure grow to this (default 5000 ms). */
  readonly maxBackoffMs?: number;
  /** Stops once this block is indexed (a backfill up to a height; tests comparing at one height). */
  readonly stopAfterHeight?: number;
  /** One line per state change: the first failure of a run and the recovery at `warn`, repeats at `debug`. */
  readonly log: (line: string, level: "info" | "warn" | "debug") => void;
  readonly onIndexed?: (height: number) => void;
}

/** What the follower commits with each block: the transactions whose receipts are still running. */
interface FollowerState {
  openTransactions?: [string, string][];
}

/** The open transactions of a committed follower state (none in a fresh index's `{}`). */
function openTransactionsOf(state: unknown): Map<string, string> {
  const open = new Map<string, string>();
  const list = typeof state === "object" && state !== null && "openTransactions" in state ? state.openTransactions : undefined;
  if (list === undefined) return open;
  if (!Array.isArray(list)) throw new Error(`the index's follower state is not one this follower wrote: ${JSON.stringify(state)}`);
  for (const entry of list) {
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string") {
      throw new Error(`the index's follower state has a malformed open transaction: ${JSON.stringify(entry)}`);
    }
    open.set(entry[0], entry[1]);
  }
  return open;
}

/**
 * Follows an upstream's final blocks (an UpstreamBlockSource), one at a time, into a
 * PostgresIndexStore, each block's update derived by the IndexBuilder (as the local BlockIndexer
 * derives it from the chain's commits): each block's update and the follower's own state (the transactions whose receipts are still running)
 * are committed in one transaction, so the follower, or another instance taking over, resumes
 * exactly after the last indexed block. A failing upstream or database is retried with a
 * growing delay and one log line per failure.
 */
export class UpstreamFollower {
  /** The upstream's last final height seen (for the lag report). */
  upstreamFinalHeight: number | null = null;
  private stopped = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly source: UpstreamBlockSource;
  private readonly indexBuilder = new IndexBuilder(UNCAPPED_BALANCE_READS);
  private readonly builder = new HistoryBuilder();
  /** The upstream's genesis height and shard layout (asked once, for the history rows). */
  /** The upstream's min_gas_purchase_price is read once: it changes only with the protocol version. */
  private chainFacts: { genesisHeight: number; layout: ShardLayout; minGasPurchasePrice: bigint } | undefined;

  constructor(private readonly options: UpstreamFollowerOptions) {
    this.source = new UpstreamBlockSource({
      call: options.call,
      concurrency: options.concurrency ?? 8,
      // The history's transactions still executing are followed too (the same set, unless a step failed in between).
      alsoFollow: () => (options.history === undefined ? [] : this.builder.openTransactions.map((t): [string, string] => [t.hash, t.signerId])),
    });
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Stops after the block in progress (its transaction commits or rolls back whole). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async run(): Promise<void> {
    const { store, log } = this.options;
    let failures = 0;
    let resumed = false;
    let next: number | undefined;
    while (!this.stopped) {
      try {
        if (!resumed) {
          await store.refreshHeight();
          // What the last committed block left open: a failed step's own progress is dropped.
          this.source.open = openTransactionsOf(await store.followerState());
          next = undefined;
          await this.resumeHistory();
          resumed = true;
        }
        const head = await this.source.headHeight();
        this.upstreamFinalHeight = head;
        next ??= store.height === null ? await this.firstHeight() : store.height + 1;
        const last = Math.min(head, this.options.stopAfterHeight ?? Infinity);
        while (!this.stopped && next <= last) {
          const input = await this.source.block(next);
          if (input !== undefined) {
            const history = this.options.history;
            const facts = this.chainFacts;
            const rows = history === undefined || facts === undefined ? undefined : this.builder.update(historyInputFromRpc(input.answers, facts.layout, next === facts.genesisHeight, facts.minGasPurchasePrice));
            await store.applyWithFollowerState(
              await this.indexBuilder.update(input),
              { openTransactions: [...input.open] } satisfies FollowerState,
              history === undefined || rows === undefined ? undefined : (client) => history.write(client, rows),
            );
            if (history !== undefined) history.height = next;
            this.options.onIndexed?.(next);
          }
          next++;
        }
        if (failures > 0) log(`index follower: ${this.options.upstreamName} answers again; indexed up to block ${store.height}`, "warn");
        failures = 0;
        if (this.options.stopAfterHeight !== undefined && next > this.options.stopAfterHeight) return;
        await this.sleep(this.options.pollMs ?? 300);
      } catch (error) {
        failures++;
        const delay = Math.min(this.options.maxBackoffMs ?? 5000, 250 * 2 ** Math.min(failures - 1, 5));
        // Before the first step knows its block (reading the index or the upstream head failed), name what it was doing.
        const step = next !== undefined ? `block ${next}` : !resumed ? "reading the index state" : "asking for the final head";
        log(
          `index follower: ${step} from ${this.options.upstreamName} failed (${failures}x): ${describeError(error)}; retrying in ${delay} ms`,
          failures === 1 ? "warn" : "debug",
        );
        // What the failed step computed is dropped: resume from what the index committed.
        resumed = false;
        await this.sleep(delay);
      }
    }
  }

  /** The history builder back at what the history store committed: its transactions still executing. */
  private async resumeHistory(): Promise<void> {
    const history = this.options.history;
    if (history === undefined) return;
    if (this.chainFacts === undefined) {
      const genesis = await callUpstream(this.options.call, "EXPERIMENTAL_genesis_config", {});
      const config = await callUpstream(this.options.call, "EXPERIMENTAL_protocol_config", { finality: "final" });
      // Absent before protocol 85 (nearcore's serde default: 0).
      const minGasPurchasePrice = BigInt(config.runtime_config.min_gas_purchase_price ?? "0");
      this.chainFacts = { genesisHeight: genesis.genesis_height, layout: shardLayoutFromView(genesis.shard_layout), minGasPurchasePrice };
    }
    await history.refreshHeight();
    this.builder.clear();
    for (const record of await history.incompleteTransactions()) {
      // A local receipt still to execute is rebuilt with the price its gas was bought at in its
      // transaction's block (NEP-642: at least min_gas_purchase_price).
      const block = await callUpstream(this.options.call, "block", { block_id: record.row.tx_block_hash });
      this.builder.resume(record, gasPurchasePrice(this.chainFacts, BigInt(block.header.gas_price)).toString());
    }
  }

  private async firstHeight(): Promise<number> {
    return this.options.startHeight ?? (await this.source.genesisHeight());
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** An error's message with its cause (fetch's "fetch failed" says why only in `cause`). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause === undefined || cause === "" ? error.message : `${error.message} (${cause})`;
}
