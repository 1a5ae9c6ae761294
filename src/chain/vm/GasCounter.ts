import type { ExtCost } from "../runtime/parameters.js";
import type { GasProfileEntry } from "../runtime/executionOutcome.js";
import { U64_MAX } from "../primitives/integerLimits.js";
import { hostError } from "./HostError.js";

/**
 * nearcore `GasCounter` (logic/gas_counter.rs). `burnt` is gas spent; `promisesGas` is gas
 * reserved for the receipts the call creates (their execution fees and prepaid gas); used =
 * burnt + promisesGas. Burning is limited by min(max_gas_burnt, prepaid − promisesGas); an
 * overrun clamps burnt to the hard limit and raises GasLimitExceeded (max burnt crossed) or
 * GasExceeded (prepaid crossed). Views ignore the prepaid gas.
 */
export class GasCounter {
  private burnt = 0n;
  private promisesGas = 0n;
  private gasLimit: bigint;
  private readonly prepaid: bigint;
  /** Gas burnt per cost (nearcore ProfileDataV3): ext costs by name, action costs as "action:name". */
  private readonly profile = new Map<string, bigint>();

  constructor(
    private readonly extCosts: Readonly<Record<ExtCost, bigint>>,
    private readonly maxGasBurnt: bigint,
    prepaidGas: bigint,
    private readonly isView: boolean,
  ) {
    this.prepaid = isView ? U64_MAX : prepaidGas;
    this.gasLimit = this.maxGasBurnt < this.prepaid ? this.maxGasBurnt : this.prepaid;
  }

  get burntGas(): bigint {
    return this.burnt;
  }

  get usedGas(): bigint {
    return this.burnt + this.promisesGas;
  }

  /** Gas that may still be burnt before a limit is hit. */
  get remainingGas(): bigint {
    return this.gasLimit - this.burnt;
  }

  /**
   * The instrumentation's per-segment charge: the hot path of every contract, kept free of
   * allocation beyond the bigint add. `gas` is never negative (only prepared code calls it).
   */
  burnWasm(gas: bigint): boolean {
    const next = this.burnt + gas;
    if (next <= this.gasLimit) {
      this.burnt = next;
      return true;
    }
    return false;
  }

  /** Burns what is left up to the limit and returns the limit's error (runaway code stopped). */
  exhaust(): Error {
    return this.limitError(this.gasLimit + 1n, this.gasLimit + 1n + this.promisesGas);
  }

  burn(gas: bigint): void {
    const next = this.burnt + gas;
    if (next > U64_MAX) throw hostError({ name: "IntegerOverflow" });
    if (next <= this.gasLimit) {
      this.burnt = next;
      return;
    }
    throw this.limitError(next, next + this.promisesGas);
  }

  payBase(cost: ExtCost): void {
    const before = this.burnt;
    try {
      this.burn(this.extCosts[cost]);
    } finally {
      this.record(cost, before);
    }
  }

  payPer(cost: ExtCost, count: bigint | number): void {
    const gas = BigInt(count) * this.extCosts[cost];
    if (gas > U64_MAX) throw hostError({ name: "IntegerOverflow" });
    const before = this.burnt;
    try {
      this.burn(gas);
    } finally {
      this.record(cost, before);
    }
  }

  /** Adds to `key`'s profile entry what was burnt since `before`, also when a limit clamped it. */
  private record(key: string, before: bigint): void {
    const delta = this.burnt - before;
    if (delta > 0n) this.profile.set(key, (this.profile.get(key) ?? 0n) + delta);
  }

  /**
   * nearcore's `gas_profile` of the call: every cost with gas burnt, plus WASM_INSTRUCTION (the
   * rest of the burnt gas), sorted by category then name, as ExecutionMetadataView lists them.
   */
  gasProfile(): GasProfileEntry[] {
    let counted = 0n;
    const out: GasProfileEntry[] = [];
    for (const [key, gas] of this.profile) {
      counted += gas;
      const action = key.startsWith("action:");
      out.push({
        cost_category: action ? "ACTION_COST" : "WASM_HOST_COST",
        cost: (action ? key.slice(7) : key).toUpperCase(),
        gas_used: gas.toString(),
      });
    }
    const wasm = this.burnt - counted;
    if (wasm > 0n) out.push({ cost_category: "WASM_HOST_COST", cost: "WASM_INSTRUCTION", gas_used: wasm.toString() });
    return out.sort((a, b) => (a.cost_category < b.cost_category ? -1 : a.cost_category > b.cost_category ? 1 : a.cost < b.cost ? -1 : a.cost > b.cost ? 1 : 0));
  }

  /** Burns `burnGas` and reserves `useGas − burnGas` for new receipts (`pay_action_accumulated`). */
  payAction(burnGas: bigint, useGas: bigint, action?: string): void {
    const before = this.burnt;
    try {
      this.deductGas(burnGas, useGas);
    } finally {
      if (action !== undefined) this.record(`action:${action}`, before);
    }
  }

  private deductGas(burnGas: bigint, useGas: bigint): void {
    const promises = useGas - burnGas;
    const newPromises = this.promisesGas + promises;
    const newBurnt = this.burnt + burnGas;
    const newUsed = newBurnt + newPromises;
    if (newPromises > U64_MAX || newBurnt > U64_MAX || newUsed > U64_MAX) throw hostError({ name: "IntegerOverflow" });
    if (newBurnt <= this.maxGasBurnt && newUsed <= this.prepaid) {
      if (promises !== 0n && !this.isView) {
        const left = this.prepaid - newPromises;
        this.gasLimit = this.maxGasBurnt < left ? this.maxGasBurnt : left;
      }
      this.burnt = newBurnt;
      this.promisesGas = newPromises;
      return;
    }
    throw this.limitError(newBurnt, newUsed);
  }

  /** Reserves gas attached to a promise's function call. */
  prepay(gas: bigint): void {
    this.payAction(0n, gas);
  }

  /** `process_gas_limit`: clamp to what was paid for, then name the limit crossed. */
  private limitError(newBurnt: bigint, newUsed: bigint): Error {
    const hard = this.prepaid < this.maxGasBurnt ? this.prepaid : this.maxGasBurnt;
    this.burnt = newBurnt < hard ? newBurnt : hard;
    const usedLimit = this.prepaid < newUsed ? this.prepaid : newUsed;
    this.promisesGas = usedLimit > this.burnt ? usedLimit - this.burnt : 0n;
    return hostError({ name: newBurnt > this.maxGasBurnt ? "GasLimitExceeded" : "GasExceeded" });
  }
}
