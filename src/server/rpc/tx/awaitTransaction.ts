import type { TransactionStatus } from "../../../chain/node.js";
import { TimeoutError } from "../../errors.js";
import type { RpcContext } from "../context.js";
import { meetsWaitUntil, type TxExecutionStatus } from "./waitUntil.js";

/**
 * Resolves with the transaction's status once it meets `requested`, re-checking after every
 * block; rejects with TIMEOUT_ERROR after the listener's timeout, as nearcore's polling does.
 * On a chain without timed blocks (`--block-time 0`) the wait asks the chain's scheduler for
 * blocks (one per macrotask, so other requests interleave) until the status is reached.
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
      release();
      outcome();
    };
    const check = () => {
      const status = satisfied();
      if (status !== undefined) finish(() => resolve(status));
    };
    const unsubscribe = chain.onBlock(check);
    const timer = setTimeout(() => finish(() => reject(new TimeoutError())), ctx.txTimeoutMs);

    // An on-demand chain (`--block-time 0`) produces while someone waits; a dropped transaction never lands.
    const release = chain.requestBlocks(() => settled || chain.transactionStatus(hash) === undefined || satisfied() !== undefined);
  });
}
