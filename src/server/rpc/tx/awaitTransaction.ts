import type { TransactionStatus } from "../../../chain/node.js";
import { TimeoutError } from "../../errors.js";
import type { RpcContext } from "../context.js";
import { meetsWaitUntil, type TxExecutionStatus } from "./waitUntil.js";

/** Blocks an on-demand chain may produce for one waiting request before it gives up early. */
const MAX_ON_DEMAND_BLOCKS = 64;

/**
 * Resolves with the transaction's status once it meets `requested`, re-checking after every
 * block; rejects with TIMEOUT_ERROR after the listener's timeout, as nearcore's polling does.
 * On a chain without timed blocks (`--block-time 0`) a waiting known transaction pushes blocks
 * itself, one per macrotask so other requests still interleave: the dev chain's convenience.
 */
export function awaitTransaction(ctx: RpcContext, hash: string, requested: TxExecutionStatus): Promise<TransactionStatus> {
  const { chain } = ctx;
  const satisfied = (): TransactionStatus | undefined => {
    const status = chain.transactionStatus(hash);
    return status !== undefined && meetsWaitUntil(status.finalExecutionStatus, requested) ? status : undefined;
  };
  const now = satisfied();
  if (now !== undefined) return Promise.resolve(now);

  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unsubscribe();
      outcome();
    };
    const check = () => {
      const status = satisfied();
      if (status !== undefined) finish(() => resolve(status));
    };
    const unsubscribe = chain.onBlock(check);
    const timer = setTimeout(() => finish(() => reject(new TimeoutError())), ctx.txTimeoutMs);

    if (chain.blockTimeMs === 0 && chain.transactionStatus(hash) !== undefined) {
      let produced = 0;
      const step = () => {
        // A transaction the pool dropped will never land: stop pushing blocks for it.
        if (settled || produced++ >= MAX_ON_DEMAND_BLOCKS || chain.transactionStatus(hash) === undefined) return;
        chain.produceBlock(); // the onBlock listener re-checks
        setImmediate(step);
      };
      setImmediate(step);
    }
  });
}
