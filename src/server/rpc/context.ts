import type { ChainReader } from "../../chain/ChainReader.js";
import type { DevChainControl } from "../../chain/sandbox/DevChainControl.js";
import type { ResetOutcome, ResetRequest } from "../resetRequest.js";
import type { ViewBudget } from "./query/ViewBudget.js";

/** A block as the chain hands it out. */
export type Block = ReturnType<ChainReader["head"]>;

/** What every handler sees: the chain (its read interface) and the serving policy of the listener it runs on. */
export interface RpcContext {
  chain: ChainReader;
  /** Archival listeners serve every block; regular ones only the last `retention` blocks. */
  archival: boolean;
  retention: number;
  /** Address this listener is bound to (host:port), reported by `status`. */
  rpcAddr: string;
  /** Process start, for `status.uptime_sec`. */
  startedAtMs: number;
  /** How long transaction methods wait for the requested status before TIMEOUT_ERROR. */
  txTimeoutMs: number;
  /** Time limits of `query` call_function (shared by every listener: they share one thread). */
  views: ViewBudget;
  /** sandbox_* / shardkit_* controls of the dev chain; without them those methods are METHOD_NOT_FOUND. */
  devChain?: DevChainControl;
  /** shardkit_reset: replaces the chain (and what follows it); without it the method is METHOD_NOT_FOUND. */
  reset?: (request: ResetRequest) => Promise<ResetOutcome>;
}
