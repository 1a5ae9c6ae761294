import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GasCounter } from "../../../src/chain/vm/GasCounter.js";
import { HostErrorThrow } from "../../../src/chain/vm/HostError.js";
import { E, hostErrorOf, U64_MAX } from "./hostKit.js";

const counter = (maxBurnt: bigint, prepaid: bigint, view = false) => new GasCounter(E, maxBurnt, prepaid, view);

describe("GasCounter (nearcore gas_counter.rs)", () => {
  it("burns up to the prepaid gas, then clamps and reports GasExceeded", () => {
    const g = counter(100n, 10n);
    g.burn(5n);
    expect(hostErrorOf(() => g.burn(6n))).toEqual({ name: "GasExceeded" });
    expect(g.burntGas).toBe(10n);
    expect(g.usedGas).toBe(10n);
  });

  it("prefers GasLimitExceeded when max_gas_burnt is crossed", () => {
    const g = counter(10n, 100n);
    expect(hostErrorOf(() => g.burn(11n))).toEqual({ name: "GasLimitExceeded" });
    expect(g.burntGas).toBe(10n);
  });

  it("reserving gas for promises lowers the burn limit; used = burnt + reserved", () => {
    const g = counter(100n, 50n);
    g.payAction(5n, 30n);
    expect([g.burntGas, g.usedGas]).toEqual([5n, 30n]);
    expect(hostErrorOf(() => g.burn(21n))).toEqual({ name: "GasExceeded" });
    expect(g.burntGas).toBe(26n); // min(new burnt, prepaid): nearcore clamps to the hard limit only
    expect(g.usedGas).toBe(50n);
    const h = counter(100n, 50n);
    expect(hostErrorOf(() => h.prepay(51n))).toEqual({ name: "GasExceeded" });
  });

  it("views ignore the prepaid gas and stop at max_gas_burnt", () => {
    const g = counter(1000n, 0n, true);
    g.burn(999n);
    expect(hostErrorOf(() => g.burn(2n))).toEqual({ name: "GasLimitExceeded" });
  });

  it("overflowing u64 is IntegerOverflow, and exhaust() burns to the limit", () => {
    const g = counter(2n ** 64n - 1n, 2n ** 64n - 1n);
    expect(hostErrorOf(() => g.payPer("base", 2n ** 64n))).toEqual({ name: "IntegerOverflow" });
    const h = counter(100n, 40n);
    h.burn(3n);
    const e = h.exhaust();
    expect(e).toBeInstanceOf(HostErrorThrow);
    expect((e as HostErrorThrow).hostError).toEqual({ name: "GasExceeded" });
    expect(h.burntGas).toBe(40n);
  });

  it("reset() gives the counter of a new call: the same figures, profile and errors as a fresh one", () => {
    // Each step's error (or none) and the figures after it.
    const script = (g: GasCounter): unknown[] => {
      const steps = [
        () => g.payBase("base"),
        () => g.payPer("read_memory_byte", 100),
        () => g.payAction(1_000_000n, 5_000_000n, "function_call_base"),
        () => g.burnWasm(7n),
        () => g.burn(10n ** 15n),
      ];
      return steps.map((step) => {
        let error: unknown = null;
        try {
          step();
        } catch (e) {
          if (!(e instanceof HostErrorThrow)) throw e;
          error = e.hostError;
        }
        return [error, g.burntGas, g.usedGas, g.gasProfile()];
      });
    };
    const used = counter(10n ** 14n, 300n * 10n ** 12n);
    script(used);
    used.setReserve(1000n, () => used.clearReserve());
    for (const [maxBurnt, prepaid, view] of [
      [10n ** 14n, 50n * 10n ** 12n, false],
      [10n ** 13n, 0n, true],
      [300n * 10n ** 12n, 9_000_000n, false],
    ] as const) {
      used.reset(maxBurnt, prepaid, view);
      expect(script(used)).toEqual(script(counter(maxBurnt, prepaid, view)));
    }
  });
});

/**
 * nearcore gas_counter.rs as plain bigint arithmetic, one charge at a time: the reference the
 * counter's double fast path (charges within its room kept in doubles) must match exactly.
 */
class ReferenceCounter {
  burnt = 0n;
  promises = 0n;
  private gasLimit: bigint;
  private readonly prepaid: bigint;
  readonly byCost = new Map<string, bigint>();

  constructor(
    private readonly maxBurnt: bigint,
    prepaid: bigint,
    private readonly view: boolean,
  ) {
    this.prepaid = view ? U64_MAX : prepaid;
    this.gasLimit = maxBurnt < this.prepaid ? maxBurnt : this.prepaid;
  }

  burn(gas: bigint): void {
    const next = this.burnt + gas;
    if (next > U64_MAX) throw new HostErrorThrow({ name: "IntegerOverflow" });
    if (next <= this.gasLimit) this.burnt = next;
    else throw this.limitError(next, next + this.promises);
  }

  burnWasm(gas: bigint): boolean {
    if (this.burnt + gas > this.gasLimit) return false;
    this.burnt += gas;
    return true;
  }

  pay(cost: string, gas: bigint): void {
    if (gas > U64_MAX) throw new HostErrorThrow({ name: "IntegerOverflow" });
    const before = this.burnt;
    try {
      this.burn(gas);
    } finally {
      const delta = this.burnt - before;
      if (delta > 0n) this.byCost.set(cost, (this.byCost.get(cost) ?? 0n) + delta);
    }
  }

  payAction(burnGas: bigint, useGas: bigint): void {
    const newPromises = this.promises + useGas - burnGas;
    const newBurnt = this.burnt + burnGas;
    const newUsed = newBurnt + newPromises;
    if (newPromises > U64_MAX || newBurnt > U64_MAX || newUsed > U64_MAX) throw new HostErrorThrow({ name: "IntegerOverflow" });
    if (newBurnt > this.maxBurnt || newUsed > this.prepaid) throw this.limitError(newBurnt, newUsed);
    if (useGas !== burnGas && !this.view) {
      const left = this.prepaid - newPromises;
      this.gasLimit = this.maxBurnt < left ? this.maxBurnt : left;
    }
    this.burnt = newBurnt;
    this.promises = newPromises;
  }

  private limitError(newBurnt: bigint, newUsed: bigint): HostErrorThrow {
    const hard = this.prepaid < this.maxBurnt ? this.prepaid : this.maxBurnt;
    this.burnt = newBurnt < hard ? newBurnt : hard;
    const usedLimit = this.prepaid < newUsed ? this.prepaid : newUsed;
    this.promises = usedLimit > this.burnt ? usedLimit - this.burnt : 0n;
    return new HostErrorThrow({ name: newBurnt > this.maxBurnt ? "GasLimitExceeded" : "GasExceeded" });
  }
}

describe("GasCounter against a plain bigint model of gas_counter.rs (property)", () => {
  const COSTS = Object.keys(E) as (keyof typeof E)[];
  // Amounts around the edges that matter: small, realistic, either side of 2^53 (where the
  // counter leaves doubles), and up to u64::MAX.
  const amount = fc.oneof(
    fc.bigInt(0n, 1000n),
    fc.bigInt(10n ** 9n, 10n ** 14n),
    fc.bigInt(2n ** 53n - 1000n, 2n ** 53n + 1000n),
    fc.bigInt(0n, U64_MAX),
  );
  const step = fc.oneof(
    fc.record({ op: fc.constant("payBase" as const), cost: fc.constantFrom(...COSTS) }),
    fc.record({ op: fc.constant("payPer" as const), cost: fc.constantFrom(...COSTS), count: fc.oneof(fc.nat(100_000), fc.bigInt(0n, U64_MAX), fc.bigInt(0n, 2n ** 40n)) }),
    fc.record({ op: fc.constant("burn" as const), gas: amount }),
    fc.record({ op: fc.constant("burnWasm" as const), gas: amount }),
    fc.record({ op: fc.constant("payAction" as const), burn: amount, promise: amount }),
  );

  it("every charge leaves the same burnt and used gas, error and per-cost profile", () => {
    fc.assert(
      fc.property(amount, amount, fc.boolean(), fc.array(step, { maxLength: 40 }), (maxBurnt, prepaid, view, steps) => {
        const g = counter(maxBurnt, prepaid, view);
        const r = new ReferenceCounter(maxBurnt, prepaid, view);
        const outcome = (f: () => unknown): unknown => {
          try {
            return f();
          } catch (e) {
            if (!(e instanceof HostErrorThrow)) throw e;
            return e.hostError;
          }
        };
        for (const s of steps) {
          let got: unknown, want: unknown;
          if (s.op === "payBase") {
            got = outcome(() => g.payBase(s.cost));
            want = outcome(() => r.pay(s.cost.toUpperCase(), E[s.cost]));
          } else if (s.op === "payPer") {
            got = outcome(() => g.payPer(s.cost, s.count));
            want = outcome(() => r.pay(s.cost.toUpperCase(), BigInt(s.count) * E[s.cost]));
          } else if (s.op === "burn") {
            got = outcome(() => g.burn(s.gas));
            want = outcome(() => r.burn(s.gas));
          } else if (s.op === "burnWasm") {
            got = g.burnWasm(s.gas);
            want = r.burnWasm(s.gas);
          } else {
            const burn = s.burn, use = s.burn + s.promise;
            got = outcome(() => g.payAction(burn, use, "transfer"));
            want = outcome(() => r.payAction(burn, use));
          }
          expect(got).toEqual(want);
          expect([g.burntGas, g.usedGas]).toEqual([r.burnt, r.promises + r.burnt]);
        }
        const host = new Map(g.gasProfile().filter((e) => e.cost_category === "WASM_HOST_COST" && e.cost !== "WASM_INSTRUCTION").map((e) => [e.cost, BigInt(e.gas_used)]));
        expect(host).toEqual(r.byCost);
      }),
      { numRuns: 400 },
    );
  });
});
