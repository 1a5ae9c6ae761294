import type { ExtCost } from "../runtime/parameters.js";
import { hostError } from "./HostError.js";

const U64_MAX = (1n << 64n) - 1n;

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
    this.burn(this.extCosts[cost]);
  }

  payPer(cost: ExtCost, count: bigint | number): void {
    const gas = BigInt(count) * this.extCosts[cost];
    if (gas > U64_MAX) throw hostError({ name: "IntegerOverflow" });
    this.burn(gas);
  }

  /** Burns `burnGas` and reserves `useGas − burnGas` for new receipts (`deduct_gas`). */
  payAction(burnGas: bigint, useGas: bigint): void {
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
