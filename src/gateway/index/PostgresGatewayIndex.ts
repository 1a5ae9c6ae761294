import pg from "pg";
import { PostgresHistoryStore } from "../../indexer/history/PostgresHistoryStore.js";
import { migrateIndexSchema } from "../../indexer/postgres/indexSchema.js";
import { PostgresIndexReader } from "../../indexer/postgres/PostgresIndexReader.js";
import { PostgresIndexStore } from "../../indexer/postgres/PostgresIndexStore.js";
import { UpstreamFollower } from "../../indexer/upstream/UpstreamFollower.js";
import { callUpstream, upstreamRpc, type UpstreamCall } from "../../indexer/upstream/UpstreamRpc.js";
import { connectionFailure } from "../../indexer/postgres/connectionFailure.js";
import type { IndexUnavailableError } from "../../indexer/IndexUnavailableError.js";
import type { GatewayIndex, GatewayIndexStatus } from "../GatewayIndex.js";
import { LeaderLock } from "./LeaderLock.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

export interface PostgresGatewayIndexOptions {
  /** postgres:// URL of the shared database. */
  readonly postgresUrl: string;
  /** The upstream nearcore RPC nodes the leader follows (failover in order). */
  readonly upstreamUrls: readonly string[];
  /**
   * How the leader calls them: the gateway's own UpstreamPool (`UpstreamPool.call`, the same
   * pooled, probed connections it forwards over). Default: calls of its own over fetch.
   */
  readonly call?: UpstreamCall;
  /** Block a fresh index starts at (default: the upstream's genesis, indexed from its state changes). */
  readonly startHeight?: number;
  /** How often a non-leader tries the leader lock (default 1000 ms). */
  readonly leaderPollMs?: number;
  /** The follower's poll of the upstream's final head (default 300 ms). */
  readonly followPollMs?: number;
  /** Reader connections per instance (default 8). */
  readonly readConnections?: number;
  /**
   * Leadership changes and failures (one line each; never a credential), with their level: an
   * outage of the database is `warn` once when it starts and once when it ends.
   */
  readonly log: (line: string, level: "info" | "warn" | "debug") => void;
}

/** How long a new connection to PostgreSQL may take before the read fails as unavailable. */
const CONNECT_TIMEOUT_MS = 3000;

/** How long the upstream's final height is reused for the lag report. */
const HEAD_CACHE_MS = 1000;

/**
 * The gateway's `index` part over PostgreSQL: every instance reads REST /v1 from the shared
 * database; one instance at a time (the holder of an advisory lock) follows the upstream and
 * writes it. Instances without the lock retry it, so when the leader dies another takes over
 * and resumes after the last committed block. A database restart ends every session: the
 * leader steps down, the pools reconnect, and whoever gets the lock first goes on.
 */
export class PostgresGatewayIndex implements GatewayIndex {
  readonly reader: PostgresIndexReader;
  readonly history: PostgresHistoryStore;
  private readonly pool: pg.Pool;
  private readonly call: UpstreamCall;
  private leader: { lock: LeaderLock; follower: UpstreamFollower } | undefined;
  private closed = false;
  private electing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private head: { height: number; at: number } | undefined;
  private lastProblem = "";
  /** Whether the database answered the last time it was asked (reads, status, the leader lock). */
  private reachable = true;
  private lastError: string | null = null;
  /** This instance lost the leader lock and has not taken it again (a degraded state, logged at warn). */
  private lostLeadership = false;

  private constructor(private readonly options: PostgresGatewayIndexOptions) {
    // A bounded connect: a database cut off by the network must turn into a 503, not a hung request.
    this.pool = new pg.Pool({ connectionString: options.postgresUrl, max: options.readConnections ?? 8, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // An idle pooled session cut by a database restart: the pool drops it and reconnects on demand.
    this.pool.on("error", () => undefined);
    const watch = {
      reachable: () => this.markReachable(),
      unreachable: (error: IndexUnavailableError) => this.markUnreachable(error.reason),
    };
    this.reader = new PostgresIndexReader(this.pool, watch);
    this.history = PostgresHistoryStore.reader(this.pool, watch);
    this.call = options.call ?? upstreamRpc(options.upstreamUrls);
  }

  /** Creates or migrates the schema (so /v1 can answer at once) and starts contending for the leader lock. */
  static async start(options: PostgresGatewayIndexOptions): Promise<PostgresGatewayIndex> {
    const index = new PostgresGatewayIndex(options);
    try {
      await migrateIndexSchema(index.pool);
    } catch (error) {
      await index.pool.end().catch(() => undefined);
      throw new Error(`the PostgreSQL index at ${redact(options.postgresUrl)} cannot be opened: ${errorMessage(error)}`);
    }
    index.schedule(0);
    return index;
  }

  get isLeader(): boolean {
    return this.leader?.lock.held === true;
  }

  /** Availability, leadership and lag; while the database does not answer, the lag is unknown (null). */
  async status(): Promise<GatewayIndexStatus> {
    // The reader reports reachability itself (markReachable / markUnreachable).
    const [index, head] = await Promise.all([
      this.reader.status().catch((error: unknown) => {
        if (connectionFailure(error) === undefined) throw error;
        return undefined;
      }),
      this.upstreamFinalHeight(),
    ]);
    if (index === undefined || index.height === null) {
      const lastError = index === undefined ? this.lastError : "the index holds no block yet";
      return { available: false, lastError, leader: this.isLeader, lagBlocks: null, lagSeconds: null };
    }
    return {
      available: true,
      lastError: this.lastError,
      leader: this.isLeader,
      lagBlocks: index.height === null || head === undefined ? null : Math.max(0, head - index.height),
      lagSeconds: index.timestampNs === null ? null : Math.max(0, Number(BigInt(Date.now()) * 1_000_000n - index.timestampNs) / 1e9),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.electing;
    await this.stepDown();
    await this.pool.end().catch(() => undefined);
  }

  /** The upstream's final height, reused for a second; undefined while the upstream does not answer. */
  private async upstreamFinalHeight(): Promise<number | undefined> {
    const followed = this.leader?.follower.upstreamFinalHeight;
    if (this.isLeader && followed !== null && followed !== undefined) return followed;
    if (this.head !== undefined && Date.now() - this.head.at < HEAD_CACHE_MS) return this.head.height;
    try {
      const block = await callUpstream(this.call, "block", { finality: "final" });
      this.head = { height: block.header.height, at: Date.now() };
    } catch {
      // Reported as an unknown lag; the gateway's own upstream health says why.
    }
    return this.head?.height;
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.electing = this.elect().finally(() => {
        this.electing = undefined;
        this.schedule(this.options.leaderPollMs ?? 1000);
      });
    }, delayMs);
    this.timer.unref();
  }

  /** One round: a non-leader tries the lock; a leader that took it starts following. */
  private async elect(): Promise<void> {
    if (this.closed || this.leader !== undefined) return;
    let lock: LeaderLock | undefined;
    try {
      lock = await LeaderLock.tryAcquire(this.options.postgresUrl);
    } catch (error) {
      const unavailable = connectionFailure(error);
      if (unavailable !== undefined) this.markUnreachable(unavailable.reason);
      else this.problem(`index: cannot try the leader lock: ${errorMessage(error)}; retrying`);
      return;
    }
    this.markReachable();
    if (lock === undefined) {
      this.lastProblem = ""; // the database answers again: a later problem is worth a new line
      return;
    }
    if (this.closed) return void (await lock.release());
    try {
      const store = await PostgresIndexStore.open(this.pool, lock.session);
      const follower = new UpstreamFollower({
        call: this.call,
        upstreamName: this.options.upstreamUrls.map(redact).join(", "),
        store,
        history: await PostgresHistoryStore.open(this.pool),
        ...(this.options.followPollMs !== undefined && { pollMs: this.options.followPollMs }),
        ...(this.options.startHeight !== undefined && { startHeight: this.options.startHeight }),
        log: this.options.log,
      });
      this.leader = { lock, follower };
      lock.onLost(() => {
        this.lostLeadership = true;
        this.options.log("index: lost the leader lock (its PostgreSQL session ended); following stops until it is taken again", "warn");
        void this.stepDown();
      });
      this.lastProblem = "";
      this.options.log(
        `index: leader${this.lostLeadership ? " again" : ""}; following ${this.options.upstreamUrls.map(redact).join(", ")} from block ${store.height === null ? "genesis" : store.height + 1}`,
        this.lostLeadership ? "warn" : "info",
      );
      this.lostLeadership = false;
      follower.start();
    } catch (error) {
      this.problem(`index: could not start as leader: ${errorMessage(error)}; retrying`);
      await lock.release();
    }
  }

  private async stepDown(): Promise<void> {
    const leader = this.leader;
    if (leader === undefined) return;
    this.leader = undefined;
    await leader.follower.stop();
    await leader.lock.release();
  }

  /** Logs a problem once until it changes (a database down for a minute is one line, not sixty). */
  private problem(line: string): void {
    if (line === this.lastProblem) return;
    this.lastProblem = line;
    this.options.log(line, "warn");
  }

  /** The database did not answer: one `warn` line when an outage starts. */
  private markUnreachable(reason: string): void {
    this.lastError = reason;
    if (!this.reachable) return;
    this.reachable = false;
    this.options.log(`index: PostgreSQL at ${redact(this.options.postgresUrl)} unreachable (${reason}): REST /v1 answers 503 until it is back`, "warn");
  }

  /** The database answered: one `warn` line when an outage ends. */
  private markReachable(): void {
    if (this.reachable) return;
    this.reachable = true;
    this.options.log(`index: PostgreSQL at ${redact(this.options.postgresUrl)} is back: REST /v1 answers again`, "warn");
  }
}

/** A URL without its password or query (which may carry credentials). */
function redact(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== "") url.password = "***";
    url.search = "";
    return url.toString();
  } catch {
    return "(unparsable URL)";
  }
}
