import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { instrumentModule } from "../../../../src/chain/vm/wasm/instrument.js";
import { NEARCORE_WASM_LIMITS, prepareContract } from "../../../../src/chain/vm/wasm/prepareContract.js";
import { decodeModule, encodeModule } from "../../../../src/chain/vm/wasm/wasmModule.js";
import { ExternalKind } from "../../../../src/chain/vm/wasm/wasmTypes.js";
import { meteredRun } from "./meteredRun.js";
import { wat } from "./watFixture.js";

/*
 * Random structured programs (branches, bounded loops, early returns, calls, memory access,
 * bulk memory, traps): metering per segment, as finite-wasm segments code, must charge exactly
 * what metering every instruction separately charges, and stop at the same point.
 */

const expr: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? fc.oneof(
        fc.integer({ min: -5, max: 300 }).map((n) => `(i32.const ${n})`),
        fc.constant("(local.get $a)"),
      )
    : fc.oneof(
        fc.integer({ min: -5, max: 300 }).map((n) => `(i32.const ${n})`),
        fc.constant("(local.get $a)"),
        fc
          .tuple(fc.constantFrom("add", "mul", "sub", "and", "xor", "shl"), expr(depth - 1), expr(depth - 1))
          .map(([op, a, b]) => `(i32.${op} ${a} ${b})`),
        expr(depth - 1).map((a) => `(i32.eqz ${a})`),
        expr(depth - 1).map((a) => `(i32.load (i32.and ${a} (i32.const 4095)))`),
        expr(depth - 1).map((a) => `(call $leaf ${a})`),
        fc.tuple(expr(depth - 1), expr(depth - 1), expr(depth - 1)).map(([a, b, c]) => `(select ${a} ${b} ${c})`),
        fc.tuple(expr(depth - 1), expr(depth - 1)).map(([a, b]) => `(i32.div_u ${a} ${b})`),
      ),
);

function statements(depth: number): fc.Arbitrary<string> {
  const simple = fc.oneof(
    expr(3).map((e) => `(local.set $a ${e})`),
    expr(3).map((e) => `(drop ${e})`),
    fc.tuple(expr(2), expr(2)).map(([a, v]) => `(i32.store (i32.and ${a} (i32.const 4095)) ${v})`),
    fc.tuple(expr(2), expr(2)).map(([v, n]) => `(memory.fill (i32.const 64) ${v} (i32.and ${n} (i32.const 255)))`),
    expr(2).map((e) => `(if ${e} (then (return)))`),
  );
  if (depth === 0) return fc.array(simple, { minLength: 1, maxLength: 4 }).map((s) => s.join(" "));
  const inner = statements(depth - 1);
  const compound = fc.oneof(
    simple,
    fc.tuple(expr(2), inner, inner).map(([c, t, e]) => `(if ${c} (then ${t}) (else ${e}))`),
    fc.tuple(inner, expr(2), inner).map(([a, c, b]) => `(block $b${depth} ${a} (br_if $b${depth} ${c}) ${b})`),
    fc
      .tuple(fc.integer({ min: 1, max: 6 }), inner)
      .map(
        ([n, body]) =>
          `(local.set $c${depth} (i32.const ${n})) (loop $l${depth} ${body} ` +
          `(br_if $l${depth} (i32.gt_s (local.tee $c${depth} (i32.sub (local.get $c${depth}) (i32.const 1))) (i32.const 0))))`,
      ),
  );
  return fc.array(compound, { minLength: 1, maxLength: 4 }).map((s) => s.join(" "));
}

function program(body: string): string {
  return `(module (memory 1)
    (func $leaf (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
    (func (export "main") (local $a i32) (local $c1 i32) (local $c2 i32) (local $c3 i32) ${body}))`;
}

function perInstruction(code: Uint8Array): WebAssembly.Module {
  const m = decodeModule(code);
  const normalised = {
    ...m,
    memories: [],
    imports: [
      ...m.imports,
      { module: "env", name: "memory", desc: { kind: ExternalKind.memory, limits: { min: 1024, max: 2048 } } },
    ],
  };
  return new WebAssembly.Module(
    encodeModule(instrumentModule(normalised, NEARCORE_WASM_LIMITS, { mergeSegments: false, gasInGlobals: false }).module),
  );
}

describe("segment metering on random programs", () => {
  it("charges what per-instruction metering charges and stops at the same point", async () => {
    const ends = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        statements(3),
        fc.oneof(fc.bigInt({ min: 5_000_000n, max: 400_000_000n }), fc.constant(10n ** 13n)),
        fc.oneof(fc.bigInt({ min: 1n, max: 50_000_000n }), fc.constant(10n ** 12n)),
        async (body, gasLimit, armCap) => {
          const code = await wat(program(body));
          const prepared = prepareContract(code, NEARCORE_WASM_LIMITS, { gasInGlobals: false });
          if (!prepared.ok) throw new Error(`${prepared.error}: ${body}`);
          const merged = meteredRun(prepared.contract.module, "main", { gasLimit });
          const single = meteredRun(perInstruction(code), "main", { gasLimit });
          expect(merged).toEqual(single);
          // Gas in wasm globals (the default), checkpointing often: the same gas, the same stop.
          const inGlobals = prepareContract(code, NEARCORE_WASM_LIMITS);
          if (!inGlobals.ok) throw new Error(`${inGlobals.error}: ${body}`);
          const globalRun = meteredRun(inGlobals.contract.module, "main", { gasLimit, armCap });
          expect({ gas: globalRun.gas, end: globalRun.end }).toEqual({ gas: single.gas, end: single.end });
          const kind = merged.end === "ok" || merged.end === "gas" ? merged.end : "trap";
          ends.set(kind, (ends.get(kind) ?? 0) + 1);
        },
      ),
      { numRuns: 80 },
    );
    // The random programs finish, run out of gas and trap (division by zero), all three.
    expect([...ends.keys()].sort()).toEqual(["gas", "ok", "trap"]);
  }, 120_000);
});
