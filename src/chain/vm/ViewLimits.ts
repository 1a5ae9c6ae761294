/**
 * Tighter budgets for one view call than nearcore's (max_gas_burnt_view, the VM's 3 s clock):
 * the service's `--view-timeout-ms` and the indexer's balance reads use them so runaway code
 * cannot hold the (single) JS thread long. A call over either limit fails like any view that
 * runs out of gas (GasExceeded / GasLimitExceeded).
 */
export interface ViewLimits {
  /** Burnt-gas cap; only lowers max_gas_burnt_view. */
  readonly gas?: bigint;
  /** Wall-clock budget in ms (default: the VM's DEFAULT_TIME_LIMIT_MS). */
  readonly timeLimitMs?: number;
}
