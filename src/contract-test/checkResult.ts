/** Which part of the suite a check belongs to. */
export type CheckGroup = "conformance" | "behaviour" | "negative" | "auth" | "transactions";

export type CheckOutcome = "pass" | "fail" | "skip";

/** One line of the report: a method, route or rule, and how the target did. */
export interface CheckResult {
  readonly group: CheckGroup;
  /** e.g. "rpc query view_account", "rest GET /v1/account/{account_id}/full", "view_state paging". */
  readonly name: string;
  readonly outcome: CheckOutcome;
  /** Why it failed or was skipped. */
  readonly message: string | undefined;
  /** A shell command reproducing the failing request. */
  readonly curl: string | undefined;
  /** True when the check relies on something only shardkit provides (dev accounts, fixtures). */
  readonly shardkitOnly: boolean;
  readonly durationMs: number;
}
