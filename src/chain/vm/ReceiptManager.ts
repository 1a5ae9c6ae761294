import type { DataReceiver } from "../runtime/receipt.js";
import type { Action } from "../transaction/index.js";
import { at } from "../must.js";

/** An action receipt a call is building (nearcore receipt_manager.rs `ReceiptMetadata`). */
export interface PendingReceipt {
  readonly receiverId: string;
  readonly inputDataIds: Uint8Array[];
  readonly outputDataReceivers: DataReceiver[];
  readonly actions: Action[];
  /** Made by promise_yield_create (nearcore `ReceiptMetadata::is_promise_yield`). */
  readonly isPromiseYield?: true;
  /** Set by promise_set_refund_to: who gets the receipt's deposit refunds. */
  refundTo?: string;
}

/** The data a promise_yield_resume submits (nearcore: a PromiseResume receipt to the account itself). */
export interface PromiseResume {
  readonly dataId: Uint8Array;
  readonly data: Uint8Array;
}

/**
 * nearcore `ReceiptManager`: the receipts a call creates, by receipt index. A receipt that
 * depends on others gets one fresh data id per dependency: the id is an input of the new
 * receipt and an output (data receiver) of the dependency. Function calls with a gas weight
 * share the call's unused gas at the end (`distribute_unused_gas`).
 */
export class ReceiptManager {
  readonly receipts: PendingReceipt[] = [];
  readonly resumes: PromiseResume[] = [];
  private readonly weights: { receipt: number; action: number; weight: bigint }[] = [];

  constructor(private readonly newDataId: () => Uint8Array) {}

  receiverOf(receiptIndex: number): string {
    return at(this.receipts, receiptIndex).receiverId;
  }

  createActionReceipt(dependencies: readonly number[], receiverId: string): number {
    const inputDataIds: Uint8Array[] = [];
    for (const dep of dependencies) {
      const dataId = this.newDataId();
      at(this.receipts, dep).outputDataReceivers.push({ dataId, receiverId });
      inputDataIds.push(dataId);
    }
    this.receipts.push({ receiverId, inputDataIds, outputDataReceivers: [], actions: [] });
    return this.receipts.length - 1;
  }

  /**
   * nearcore `create_promise_yield_receipt`: a receipt to `receiverId` (the current account)
   * whose one input, the returned data id, nothing in this call produces.
   */
  createYieldReceipt(receiverId: string): { receipt: number; dataId: Uint8Array } {
    const dataId = this.newDataId();
    this.receipts.push({ receiverId, inputDataIds: [dataId], outputDataReceivers: [], actions: [], isPromiseYield: true });
    return { receipt: this.receipts.length - 1, dataId };
  }

  /** nearcore `set_refund_to`: a later call for the same receipt replaces the account. */
  setRefundTo(receiptIndex: number, accountId: string): void {
    at(this.receipts, receiptIndex).refundTo = accountId;
  }

  /** Appends `action`; returns its index in the receipt (what promise_batch_action_state_init answers). */
  append(receiptIndex: number, action: Action): number {
    const actions = at(this.receipts, receiptIndex).actions;
    actions.push(action);
    return actions.length - 1;
  }

  /**
   * set_state_init_data_entry: adds (or, as a BTreeMap insert, replaces) one entry of the
   * DeterministicStateInit at `actionIndex`, keeping the entries in key order. False when that
   * index names no such action.
   */
  setStateInitDataEntry(receiptIndex: number, actionIndex: bigint, key: Uint8Array, value: Uint8Array): boolean {
    const actions = at(this.receipts, receiptIndex).actions;
    const i = Number(actionIndex);
    const a = actionIndex < BigInt(actions.length) ? actions[i] : undefined;
    if (a?.type !== "DeterministicStateInit") return false;
    const data = a.stateInit.data.filter(([k]) => Buffer.compare(k, key) !== 0);
    data.push([key, value]);
    data.sort(([x], [y]) => Buffer.compare(x, y));
    actions[i] = { ...a, stateInit: { ...a.stateInit, data } };
    return true;
  }

  appendFunctionCall(receiptIndex: number, methodName: string, args: Uint8Array, deposit: bigint, gas: bigint, weight: bigint): void {
    const actions = at(this.receipts, receiptIndex).actions;
    if (weight > 0n) this.weights.push({ receipt: receiptIndex, action: actions.length, weight });
    actions.push({ type: "FunctionCall", methodName, args, deposit, gas });
  }

  /**
   * Splits `unusedGas` over the weighted function calls as nearcore's `distribute_gas` does:
   * each gets floor(unused × weight / Σweights) (exact, no overflow: bigint), and the last one
   * also gets what the flooring left over. Returns false when no call has a weight.
   */
  distributeUnusedGas(unusedGas: bigint): boolean {
    if (this.weights.length === 0) return false;
    const total = this.weights.reduce((s, w) => s + w.weight, 0n);
    let distributed = 0n;
    this.weights.forEach((w, i) => {
      const share = (unusedGas * w.weight) / total;
      const extra = i === this.weights.length - 1 ? unusedGas - distributed : share;
      distributed += extra;
      const actions = at(this.receipts, w.receipt).actions;
      const a = actions[w.action];
      if (a?.type !== "FunctionCall") throw new Error("a weighted action should be a function call");
      actions[w.action] = { ...a, gas: a.gas + extra };
    });
    return true;
  }
}
