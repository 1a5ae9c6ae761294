import type { TxExecutionStatus } from "../../../../generated/rpc/types.js";

export type { TxExecutionStatus };

/**
 * Which reached statuses satisfy a requested `wait_until` (nearcore's
 * `tx_execution_status_meets_expectations`). INCLUDED_FINAL and EXECUTED_OPTIMISTIC are not
 * ordered: a final inclusion says nothing about execution, and vice versa.
 */
const accepted: Record<TxExecutionStatus, ReadonlySet<TxExecutionStatus>> = {
  NONE: new Set(["NONE", "INCLUDED", "EXECUTED_OPTIMISTIC", "INCLUDED_FINAL", "EXECUTED", "FINAL"]),
  INCLUDED: new Set(["INCLUDED", "EXECUTED_OPTIMISTIC", "INCLUDED_FINAL", "EXECUTED", "FINAL"]),
  EXECUTED_OPTIMISTIC: new Set(["EXECUTED_OPTIMISTIC", "EXECUTED", "FINAL"]),
  INCLUDED_FINAL: new Set(["INCLUDED_FINAL", "EXECUTED", "FINAL"]),
  EXECUTED: new Set(["EXECUTED", "FINAL"]),
  FINAL: new Set(["FINAL"]),
};

/** True when a transaction at `reached` answers a request waiting for `requested`. */
export function meetsWaitUntil(reached: TxExecutionStatus, requested: TxExecutionStatus): boolean {
  return accepted[requested].has(reached);
}
