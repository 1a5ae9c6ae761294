import type { ActionErrorKindJson } from "./actionError.js";
import type { GasProfileEntry } from "./executionOutcome.js";
import type { NewReceipt } from "./receipt.js";

export type { NewReceipt } from "./receipt.js";

/** What an action receipt returns: nothing, bytes, or the result of one of its new receipts. */
export type ReturnData =
  | { readonly kind: "None" }
  | { readonly kind: "Value"; readonly value: Uint8Array }
  | { readonly kind: "ReceiptIndex"; readonly index: number };

/** A stake an account asked for (nearcore `ValidatorStake` proposal). */
export interface StakeProposal {
  readonly accountId: string;
  readonly publicKey: string;
  readonly stake: bigint;
}

/**
 * nearcore `ActionResult`: gas accounting and effects of one action, merged into the result
 * of its receipt. `gasUsed` ≥ `gasBurnt`: it also counts gas handed on to new receipts.
 */
export class ActionResult {
  gasBurnt = 0n;
  gasBurntForFunctionCall = 0n;
  gasUsed = 0n;
  /** Tokens burnt besides gas (a global contract's storage), kept only while the actions succeed. */
  tokensBurnt = 0n;
  /** Deposits minted by one_yocto_on_promise (nearcore `subsidized_amount`), kept only while the actions succeed. */
  subsidizedAmount = 0n;
  /** undefined while the actions succeed; the kind and (unless null) index of the failure. */
  error: { kind: ActionErrorKindJson; index: number | null } | undefined;
  returnData: ReturnData = { kind: "None" };
  logs: string[] = [];
  newReceipts: NewReceipt[] = [];
  proposals: StakeProposal[] = [];
  /** nearcore `ProfileDataV3` as gas_profile entries (function calls' VM costs). */
  gasProfile: readonly GasProfileEntry[] = [];

  constructor(gas = 0n) {
    this.gasBurnt = gas;
    this.gasUsed = gas;
  }

  fail(kind: ActionErrorKindJson): void {
    this.error = { kind, index: null };
  }

  get ok(): boolean {
    return this.error === undefined;
  }

  /** Folds the next action's result in; a failure drops the receipts and proposals so far. */
  merge(next: ActionResult): void {
    this.gasBurnt += next.gasBurnt;
    this.gasBurntForFunctionCall += next.gasBurntForFunctionCall;
    this.gasUsed += next.gasUsed;
    this.error = next.error;
    this.returnData =
      next.returnData.kind === "ReceiptIndex"
        ? { kind: "ReceiptIndex", index: next.returnData.index + this.newReceipts.length }
        : next.returnData;
    this.logs.push(...next.logs);
    this.gasProfile = mergeProfiles(this.gasProfile, next.gasProfile);
    if (this.ok) {
      this.tokensBurnt += next.tokensBurnt;
      this.subsidizedAmount += next.subsidizedAmount;
      this.newReceipts.push(...next.newReceipts);
      this.proposals.push(...next.proposals);
    } else {
      this.tokensBurnt = 0n;
      this.subsidizedAmount = 0n;
      this.newReceipts = [];
      this.proposals = [];
    }
  }
}

/**
 * Sums two gas profiles entry by entry, keeping nearcore's order (category, then cost).
 * Profiles are never modified, so one that adds nothing to the other is returned as it is.
 */
function mergeProfiles(a: readonly GasProfileEntry[], b: readonly GasProfileEntry[]): readonly GasProfileEntry[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const sums = new Map<string, GasProfileEntry>();
  for (const e of [...a, ...b]) {
    const key = `${e.cost_category} ${e.cost}`;
    const prev = sums.get(key);
    sums.set(key, prev === undefined ? e : { ...e, gas_used: (BigInt(prev.gas_used) + BigInt(e.gas_used)).toString() });
  }
  return [...sums.values()].sort((x, y) => (`${x.cost_category} ${x.cost}` < `${y.cost_category} ${y.cost}` ? -1 : 1));
}
