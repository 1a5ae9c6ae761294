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
});
