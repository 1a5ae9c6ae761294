import type { HistoryReader } from "../indexer/history/HistoryStore.js";
import type { Awaitable, IndexReader } from "../indexer/IndexStore.js";

/** The index follower's state, as the gateway's /status reports it. */
export interface GatewayIndexStatus {
  /** False while the index database cannot be read (REST /v1 answers 503) or holds no block yet. */
  readonly available: boolean;
  /** Why it is (or was last) unavailable; null when it never was. */
  readonly lastError: string | null;
  /** True on the instance that holds the leader lock and writes blocks to the index. */
  readonly leader: boolean;
  /** Blocks between the upstream head and the last indexed block (null before the first). */
  readonly lagBlocks: number | null;
  /** Seconds between now and the last indexed block's timestamp (null before the first). */
  readonly lagSeconds: number | null;
}

/**
 * A shared account index the gateway serves REST `/v1` from (PostgreSQL: see src/gateway/index/).
 * The gateway reads it and reports its status; it does not write it (the follower does).
 */
export interface GatewayIndex {
  readonly reader: IndexReader;
  /** The transaction history (`/v0`); without one, `/v0` answers 503. */
  readonly history?: HistoryReader;
  status(): Awaitable<GatewayIndexStatus>;
  close(): Promise<void>;
}
