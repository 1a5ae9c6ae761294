import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXT_COST_NAMES, type ExtCost } from "../../../src/chain/runtime/parameters.js";
import type { GasProfileEntry } from "../../../src/chain/runtime/executionOutcome.js";
import { GasCounter } from "../../../src/chain/vm/GasCounter.js";
import { HostErrorThrow } from "../../../src/chain/vm/HostError.js";
import { E } from "./hostKit.js";

type Op =
  | { kind: "base"; cost: ExtCost }
  | { kind: "per"; cost: ExtCost; count: bigint; asNumber: boolean }
  | { kind: "action"; burn: bigint; use: bigint; action: string }
  | { kind: "wasm"; gas: bigint };

const ACTIONS = ["new_action_receipt", "function_call_base", "function_call_byte", "transfer", "new_data_receipt_byte", "add_full_access_key"];

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("base" as const), cost: fc.constantFrom(...EXT_COST_NAMES) }),
  fc.record({
    kind: fc.constant("per" as const),
    cost: fc.constantFrom(...EXT_COST_NAMES),
    count: fc.oneof(fc.bigInt({ min: 0n, max: 5000n }), fc.bigInt({ min: 0n, max: 2n ** 64n })),
    asNumber: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("action" as const),
    burn: fc.bigInt({ min: 0n, max: 10n ** 13n }),
    use: fc.bigInt({ min: 0n, max: 10n ** 13n }),
    action: fc.constantFrom(...ACTIONS),
  }),
  fc.record({ kind: fc.constant("wasm" as const), gas: fc.bigInt({ min: 0n, max: 10n ** 13n }) }),
);

/**
 * The profile as nearcore defines it, computed the plain way: every charge's burnt delta added
 * to its cost's entry, WASM_INSTRUCTION the rest, sorted by category then upper-case name.
 */
function referenceProfile(deltas: readonly [string | undefined, bigint][], burnt: bigint): GasProfileEntry[] {
  const sums = new Map<string, bigint>();
  for (const [key, delta] of deltas) if (key !== undefined && delta > 0n) sums.set(key, (sums.get(key) ?? 0n) + delta);
  let counted = 0n;
  const out: GasProfileEntry[] = [];
  for (const [key, gas] of sums) {
    counted += gas;
    const action = key.startsWith("action:");
    out.push({ cost_category: action ? "ACTION_COST" : "WASM_HOST_COST", cost: (action ? key.slice(7) : key).toUpperCase(), gas_used: gas.toString() });
  }
  if (burnt - counted > 0n) out.push({ cost_category: "WASM_HOST_COST", cost: "WASM_INSTRUCTION", gas_used: (burnt - counted).toString() });
  return out.sort((a, b) => (a.cost_category < b.cost_category ? -1 : a.cost_category > b.cost_category ? 1 : a.cost < b.cost ? -1 : a.cost > b.cost ? 1 : 0));
}

/** Runs `ops` on `g`, returning each charge's cost key and the burnt gas it added (errors end nothing: later ops still run). */
function applyOps(g: GasCounter, ops: readonly Op[]): [string | undefined, bigint][] {
  const deltas: [string | undefined, bigint][] = [];
  for (const o of ops) {
    const before = g.burntGas;
    let key: string | undefined;
    try {
      if (o.kind === "base") {
        key = o.cost;
        g.payBase(o.cost);
      } else if (o.kind === "per") {
        key = o.cost;
        g.payPer(o.cost, o.asNumber && o.count <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(o.count) : o.count);
      } else if (o.kind === "action") {
        key = `action:${o.action}`;
        g.payAction(o.burn, o.burn + o.use, o.action);
      } else if (!g.burnWasm(o.gas)) g.burn(o.gas);
    } catch (e) {
      if (!(e instanceof HostErrorThrow)) throw e;
    }
    deltas.push([key, g.burntGas - before]);
  }
  return deltas;
}

const limits = fc.tuple(fc.bigInt({ min: 0n, max: 400n * 10n ** 12n }), fc.bigInt({ min: 0n, max: 400n * 10n ** 12n }), fc.boolean());

describe("GasCounter gas_profile", () => {
  it("equals the plain per-charge sum for any sequence of charges, also across limits and overflows", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), limits, (ops, [maxBurnt, prepaid, view]) => {
        const g = new GasCounter(E, maxBurnt, prepaid, view);
        const deltas = applyOps(g, ops);
        expect(g.gasProfile()).toEqual(referenceProfile(deltas, g.burntGas));
      }),
      { numRuns: 300 },
    );
  });

  it("gives every call of a counter reused through reset its own profile, repeated calls included", () => {
    // Calls run twice in a row and again after the others: a profile handed out again (see
    // GasCounter lastProfile) must still be the one of the call that asks.
    const call = fc.tuple(fc.array(op, { maxLength: 30 }), limits);
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 5 }), (calls) => {
        const g = new GasCounter(E, 300n * 10n ** 12n, 300n * 10n ** 12n, false);
        for (const [ops, [maxBurnt, prepaid, view]] of [...calls.flatMap((c) => [c, c]), ...calls]) {
          g.reset(maxBurnt, prepaid, view);
          const deltas = applyOps(g, ops);
          expect(g.gasProfile()).toEqual(referenceProfile(deltas, g.burntGas));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("hands out the same entries again for a call that charged exactly like the last one", () => {
    const g = new GasCounter(E, 300n * 10n ** 12n, 300n * 10n ** 12n, false);
    const run = (bytes: number): readonly GasProfileEntry[] => {
      g.reset(300n * 10n ** 12n, 300n * 10n ** 12n, false);
      g.payBase("base");
      g.payPer("write_register_byte", bytes);
      g.burn(1000n);
      return g.gasProfile();
    };
    const first = run(3);
    expect(run(3)).toBe(first);
    const other = run(4);
    expect(other).not.toBe(first);
    expect(other.find((e) => e.cost === "WRITE_REGISTER_BYTE")?.gas_used).toBe((4n * E.write_register_byte).toString());
    // An action cost is outside the unit counts: such a profile is always built anew.
    g.reset(300n * 10n ** 12n, 300n * 10n ** 12n, false);
    g.payAction(10n, 20n, "transfer");
    const withAction = g.gasProfile();
    expect(withAction).toEqual([{ cost_category: "ACTION_COST", cost: "TRANSFER", gas_used: "10" }]);
    expect(run(4)).toBe(other);
  });

  it("places WASM_INSTRUCTION among the host costs by name and action costs first", () => {
    const g = new GasCounter(E, 300n * 10n ** 12n, 300n * 10n ** 12n, false);
    g.payBase("base");
    g.payPer("write_register_byte", 3);
    g.payBase("utf8_decoding_base");
    g.burn(1000n);
    g.payAction(10n, 20n, "transfer");
    g.payAction(5n, 5n, "new_action_receipt");
    expect(g.gasProfile().map((e) => e.cost)).toEqual(["NEW_ACTION_RECEIPT", "TRANSFER", "BASE", "UTF8_DECODING_BASE", "WASM_INSTRUCTION", "WRITE_REGISTER_BYTE"]);
    expect(g.gasProfile().find((e) => e.cost === "WASM_INSTRUCTION")?.gas_used).toBe("1000");
    expect(g.gasProfile().find((e) => e.cost === "WRITE_REGISTER_BYTE")?.gas_used).toBe((3n * E.write_register_byte).toString());
  });
});
