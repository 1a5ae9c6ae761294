import { describe, expect, it } from "vitest";
import { GasCounter } from "../../../src/chain/vm/GasCounter.js";
import { HostErrorThrow } from "../../../src/chain/vm/HostError.js";
import { E, hostErrorOf } from "./hostKit.js";

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
