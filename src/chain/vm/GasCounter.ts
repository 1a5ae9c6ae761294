import { EXT_COST_NAMES, type ExtCost } from "../runtime/parameters.js";
import type { GasProfileEntry } from "../runtime/executionOutcome.js";
import { U64_MAX } from "../primitives/integerLimits.js";
import { hostError } from "./HostError.js";

/** Ext costs in gas_profile order (by upper-case name, as ExecutionMetadataView sorts them). */
const EXT_COST_BY_INDEX: readonly ExtCost[] = [...EXT_COST_NAMES].sort((x, y) => {
  const a = x.toUpperCase();
  const b = y.toUpperCase();
  return a < b ? -1 : a > b ? 1 : 0;
});
const EXT_COST_PROFILE_NAME: readonly string[] = EXT_COST_BY_INDEX.map((name) => name.toUpperCase());
/** A Map: the cost name varies per call site, and a keyed property load on a 70-key object is megamorphic (about twice as slow). */
const EXT_COST_INDEX: ReadonlyMap<string, number> = new Map(EXT_COST_BY_INDEX.map((name, i) => [name, i]));
const indexOf = (cost: ExtCost): number => EXT_COST_INDEX.get(cost)!;
/** Where WASM_INSTRUCTION (the gas no other cost accounts for) sorts among the ext costs. */
const WASM_INSTRUCTION_INDEX = EXT_COST_PROFILE_NAME.filter((name) => name < "WASM_INSTRUCTION").length;
const extCostTables = new WeakMap<Readonly<Record<ExtCost, bigint>>, readonly bigint[]>();
function extCostTable(extCosts: Readonly<Record<ExtCost, bigint>>): readonly bigint[] {
  let table = extCostTables.get(extCosts);
  if (table === undefined) {
    table = EXT_COST_BY_INDEX.map((name) => extCosts[name]);
    extCostTables.set(extCosts, table);
  }
  return table;
}

/**
 * Each ext cost as a double, by profile index (Infinity when not exact: such costs take the
 * bigint path), per cost table.
 */
const extCostNumberTables = new WeakMap<Readonly<Record<ExtCost, bigint>>, readonly number[]>();
function extCostNumbers(extCosts: Readonly<Record<ExtCost, bigint>>): readonly number[] {
  let table = extCostNumberTables.get(extCosts);
  if (table === undefined) {
    table = EXT_COST_BY_INDEX.map((name) => {
      const cost = extCosts[name];
      return cost <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cost) : Infinity;
    });
    extCostNumberTables.set(extCosts, table);
  }
  return table;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Profile unit counts stay below this (exact doubles); see countUnits. */
const UNIT_FLUSH = 2 ** 52;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * nearcore `GasCounter` (logic/gas_counter.rs). `burnt` is gas spent; `promisesGas` is gas
 * reserved for the receipts the call creates (their execution fees and prepaid gas); used =
 * burnt + promisesGas. Burning is limited by min(max_gas_burnt, prepaid − promisesGas); an
 * overrun clamps burnt to the hard limit and raises GasLimitExceeded (max burnt crossed) or
 * GasExceeded (prepaid crossed). Views ignore the prepaid gas.
 */
export class GasCounter {
  /**
   * Gas burnt is `burnt + fast`. Charges that stay within `room` (what may still be burnt
   * before `hostLimit`, capped at 2^53 − 1) are added to `fast` in doubles, exact there, with
   * no bigint allocated per charge; anything else first folds `fast` into `burnt` and takes the
   * exact bigint path, which sets `room` again (`fold` / `setRoom`).
   */
  private burnt = 0n;
  private fast = 0;
  private room = 0;
  private promisesGas = 0n;
  private gasLimit: bigint;
  private prepaid: bigint;
  /**
   * Gas burnt per cost (nearcore ProfileDataV3): per ext cost (EXT_COST_INDEX), units charged
   * in `units` plus gas recorded exactly in `profileExtra` (clamped charges, large totals);
   * action costs by nearcore's lower-case name.
   */
  private readonly units: number[] = new Array<number>(EXT_COST_BY_INDEX.length).fill(0);
  private readonly profileExtra: bigint[] = new Array<bigint>(EXT_COST_BY_INDEX.length).fill(0n);
  private readonly actionProfile = new Map<string, bigint>();
  /** Some profile gas is outside `units` (profileExtra or actionProfile has an entry): see {@link gasProfile}. */
  private exact = false;
  /**
   * The last profile built from `units` alone, with the units and burnt gas it was built from:
   * calls of one method usually charge exactly alike, and the entries are never modified, so
   * an equal profile is handed out again instead of 20-30 new entries and number strings.
   */
  private lastProfile: { readonly units: number[]; readonly burnt: bigint; readonly profile: readonly GasProfileEntry[] } | undefined;
  /**
   * Gas a wasm instance may still burn in its own counter (instrument.ts GasGlobals) without
   * the host having counted it: the budget it was armed with. Host charges take the fast path
   * only while `burnt + reserve + charge` stays within the limit (`hostLimit` = gasLimit −
   * reserve), which the exact order (instance gas first, then the charge) would also allow;
   * anything closer to a limit first settles the instance's gas (`settle`), so every limit
   * check, error and clamp happens on the exact total.
   */
  private reserve = 0n;
  private hostLimit: bigint;
  /** extCosts by profile index, and as doubles (Infinity where not exact). */
  private readonly costs: readonly bigint[];
  private readonly costNumbers: readonly number[];
  private settle: (() => void) | undefined;

  constructor(
    readonly extCosts: Readonly<Record<ExtCost, bigint>>,
    private maxGasBurnt: bigint,
    prepaidGas: bigint,
    private isView: boolean,
  ) {
    this.prepaid = isView ? U64_MAX : prepaidGas;
    this.gasLimit = this.maxGasBurnt < this.prepaid ? this.maxGasBurnt : this.prepaid;
    this.hostLimit = this.gasLimit;
    this.costs = extCostTable(extCosts);
    this.costNumbers = extCostNumbers(extCosts);
    this.setRoom();
  }

  /**
   * Moves the gas charged in doubles into the exact total (before any bigint arithmetic on it);
   * `room` shrinks by as much (at most understated when it was capped, which is safe).
   */
  private fold(): void {
    if (this.fast !== 0) {
      this.burnt += BigInt(this.fast);
      this.room -= this.fast;
      this.fast = 0;
    }
  }

  /** After `burnt` or a limit changed: how far `fast` may go (`burnt + fast` within `hostLimit`). */
  private setRoom(): void {
    const room = this.hostLimit - this.burnt;
    this.room = room > MAX_SAFE ? Number.MAX_SAFE_INTEGER : Number(room);
  }

  /**
   * The counter of a new call with the same cost table, as a fresh `new GasCounter` would be
   * (VmLogic.begin reuses its counter: no per-call arrays for the profile).
   */
  reset(maxGasBurnt: bigint, prepaidGas: bigint, isView: boolean): void {
    this.maxGasBurnt = maxGasBurnt;
    this.isView = isView;
    this.prepaid = isView ? U64_MAX : prepaidGas;
    this.gasLimit = maxGasBurnt < this.prepaid ? maxGasBurnt : this.prepaid;
    this.hostLimit = this.gasLimit;
    this.burnt = 0n;
    this.fast = 0;
    this.promisesGas = 0n;
    this.reserve = 0n;
    this.settle = undefined;
    this.setRoom();
    this.units.fill(0);
    if (this.exact) {
      this.profileExtra.fill(0n);
      this.actionProfile.clear();
      this.exact = false;
    }
  }

  /**
   * Lets an instance burn up to `budget` in its own counter; `settle` (called before any charge
   * that might cross a limit, and before burnt/used gas are read) must bring what it burnt in
   * through {@link burnWasm} after {@link clearReserve}.
   */
  setReserve(budget: bigint, settle: () => void): void {
    this.fold();
    this.reserve = budget;
    this.hostLimit = this.gasLimit - budget;
    this.settle = settle;
    this.setRoom();
  }

  /** The instance's gas is counted (or the instance is gone): charges check the exact limit again. */
  clearReserve(): void {
    this.fold();
    this.reserve = 0n;
    this.hostLimit = this.gasLimit;
    this.setRoom();
  }

  /** Brings the instance's uncounted gas in (no-op without one), and `fast` into `burnt`. */
  private settled(): void {
    if (this.reserve !== 0n) this.settle!();
    this.fold();
  }

  get burntGas(): bigint {
    this.settled();
    return this.burnt;
  }

  get usedGas(): bigint {
    this.settled();
    return this.burnt + this.promisesGas;
  }

  /** Gas that may still be burnt before a limit is hit. */
  get remainingGas(): bigint {
    this.settled();
    return this.gasLimit - this.burnt;
  }

  /**
   * The instrumentation's per-segment charge: the hot path of every contract, kept free of
   * allocation beyond the bigint add. `gas` is never negative (only prepared code calls it).
   */
  burnWasm(gas: bigint): boolean {
    // A u64 at or above 2^53 stays at or above it as a double, beyond `room`.
    const next = this.fast + Number(gas);
    if (next <= this.room) {
      this.fast = next;
      return true;
    }
    this.fold();
    if (this.burnt + gas <= this.hostLimit) {
      this.burnt += gas;
      this.setRoom();
      return true;
    }
    return false;
  }

  /** Burns what is left up to the limit and returns the limit's error (runaway code stopped). */
  exhaust(): Error {
    this.settled();
    return this.limitError(this.gasLimit + 1n, this.gasLimit + 1n + this.promisesGas);
  }

  burn(gas: bigint): void {
    if (this.burnWasm(gas)) return;
    this.settled();
    const next = this.burnt + gas;
    if (next > U64_MAX) throw hostError({ name: "IntegerOverflow" });
    if (next <= this.gasLimit) {
      this.burnt = next;
      this.setRoom();
      return;
    }
    throw this.limitError(next, next + this.promisesGas);
  }

  /**
   * Charges one `cost`. The common case (within the limit) is kept to one bigint add and a
   * counter bump: every host call pays a few of these, so they dominate the host's own time.
   */
  payBase(cost: ExtCost): void {
    const index = indexOf(cost);
    const gas = this.costNumbers[index]!;
    const next = this.fast + gas;
    if (next <= this.room) {
      this.fast = next;
      if (gas !== 0) this.countUnits(index, 1);
      return;
    }
    this.payExactly(cost, index, this.costs[index]!, 1);
  }

  payPer(cost: ExtCost, count: bigint | number): void {
    const index = indexOf(cost);
    const units = typeof count === "number" ? count : Number(count);
    // Exact when within room: a product or sum that rounds is at least 2^53 (NaN for 0 × Infinity).
    const gas = units * this.costNumbers[index]!;
    const next = this.fast + gas;
    if (next <= this.room && units < UNIT_FLUSH) {
      this.fast = next;
      if (gas !== 0) this.countUnits(index, units);
      return;
    }
    const exactGas = BigInt(count) * this.costs[index]!;
    if (exactGas > U64_MAX) throw hostError({ name: "IntegerOverflow" });
    this.payExactly(cost, index, exactGas, units);
  }

  /** The bigint path of a charge of `gas` (`units` of `cost`): settles first, clamps at a limit. */
  private payExactly(cost: ExtCost, index: number, gas: bigint, units: number): void {
    this.settled();
    const next = this.burnt + gas;
    // gasLimit never exceeds the prepaid gas, a u64: within it there is no overflow to check.
    if (next > this.gasLimit) return this.payOverLimit(cost, gas);
    this.burnt = next;
    this.setRoom();
    if (gas === 0n) return;
    if (units < UNIT_FLUSH) this.countUnits(index, units);
    else {
      this.profileExtra[index] = this.profileExtra[index]! + gas;
      this.exact = true;
    }
  }

  /**
   * The profile counts units (charges of `cost` per base, bytes per byte cost) as doubles, exact
   * below 2^53; a count that gets near it moves into the exact bigint total first.
   */
  private countUnits(index: number, units: number): void {
    const total = this.units[index]! + units;
    if (total < UNIT_FLUSH) {
      this.units[index] = total;
      return;
    }
    this.units[index] = 0;
    this.profileExtra[index] = this.profileExtra[index]! + BigInt(total) * this.costs[index]!;
    this.exact = true;
  }

  /** The general path: burn (clamping at a limit and throwing its error), then profile what was burnt. */
  private payOverLimit(cost: ExtCost, gas: bigint): void {
    this.settled();
    const before = this.burnt;
    try {
      this.burn(gas);
    } finally {
      this.fold();
      const delta = this.burnt - before;
      const index = indexOf(cost);
      if (delta > 0n) {
        this.profileExtra[index] = this.profileExtra[index]! + delta;
        this.exact = true;
      }
    }
  }

  /**
   * nearcore's `gas_profile` of the call: every cost with gas burnt, plus WASM_INSTRUCTION (the
   * rest of the burnt gas), sorted by category then name, as ExecutionMetadataView lists them.
   * Ext costs are indexed in that order already, so the (few) action costs are all that gets sorted.
   * The entries are shared, never to be modified: a profile equal to the last one built from
   * unit counts alone is that same array (see `lastProfile`).
   */
  gasProfile(): readonly GasProfileEntry[] {
    this.settled();
    const last = this.lastProfile;
    if (!this.exact && last !== undefined && last.burnt === this.burnt && sameNumbers(last.units, this.units)) return last.profile;
    const out = this.buildProfile();
    if (!this.exact) this.lastProfile = { units: this.units.slice(), burnt: this.burnt, profile: out };
    return out;
  }

  private buildProfile(): GasProfileEntry[] {
    const out: GasProfileEntry[] = [];
    let counted = 0n;
    if (this.actionProfile.size > 0) {
      const names = [...this.actionProfile.keys()].map((key) => [key.toUpperCase(), key] as const);
      for (const [name, key] of names.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
        const gas = this.actionProfile.get(key)!;
        counted += gas;
        out.push({ cost_category: "ACTION_COST", cost: name, gas_used: gas.toString() });
      }
    }
    let wasmAt = -1;
    // Entries whose gas is an exact double are summed and printed as numbers (a bigint product
    // and its toString per entry cost more than the rest of the profile).
    const costs = extCostNumbers(this.extCosts);
    let countedSmall = 0;
    for (let i = 0; i < EXT_COST_BY_INDEX.length; i++) {
      if (i === WASM_INSTRUCTION_INDEX) wasmAt = out.length;
      const units = this.units[i]!;
      const extra = this.profileExtra[i]!;
      if (units === 0 && extra === 0n) continue;
      const small = extra === 0n ? units * costs[i]! : Infinity;
      let gasUsed: string;
      if (small <= Number.MAX_SAFE_INTEGER && countedSmall + small <= Number.MAX_SAFE_INTEGER) {
        countedSmall += small;
        gasUsed = String(small);
      } else {
        const gas = (units === 0 ? 0n : BigInt(units) * this.costs[i]!) + extra;
        counted += gas;
        gasUsed = gas.toString();
      }
      out.push({ cost_category: "WASM_HOST_COST", cost: EXT_COST_PROFILE_NAME[i]!, gas_used: gasUsed });
    }
    counted += BigInt(countedSmall);
    if (wasmAt < 0) wasmAt = out.length;
    const wasm = this.burnt - counted;
    if (wasm > 0n) out.splice(wasmAt, 0, { cost_category: "WASM_HOST_COST", cost: "WASM_INSTRUCTION", gas_used: wasm.toString() });
    return out;
  }

  /** Burns `burnGas` and reserves `useGas − burnGas` for new receipts (`pay_action_accumulated`). */
  payAction(burnGas: bigint, useGas: bigint, action?: string): void {
    this.settled(); // the limit moves with the gas reserved for promises: count exactly
    const before = this.burnt;
    try {
      this.deductGas(burnGas, useGas);
    } finally {
      const delta = this.burnt - before;
      if (action !== undefined && delta > 0n) {
        this.actionProfile.set(action, (this.actionProfile.get(action) ?? 0n) + delta);
        this.exact = true;
      }
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
        this.hostLimit = this.gasLimit - this.reserve;
      }
      this.burnt = newBurnt;
      this.promisesGas = newPromises;
      this.setRoom();
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
    this.setRoom();
    return hostError({ name: newBurnt > this.maxGasBurnt ? "GasLimitExceeded" : "GasExceeded" });
  }
}
