import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contractNames } from "../../../contracts/build.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { runContract, type VmOutcome } from "../../../src/chain/vm/runContract.js";
import type { VmContext } from "../../../src/chain/vm/VmContext.js";
import { findBulkLoops } from "../../../src/chain/vm/wasm/bulkLoops.js";
import { LocalTypes, funcType, moduleContext } from "../../../src/chain/vm/wasm/functionContext.js";
import { analyzeGas, nearcoreFeeModel } from "../../../src/chain/vm/wasm/gasAnalysis.js";
import { decodeOperators } from "../../../src/chain/vm/wasm/instrument.js";
import { decodeModule } from "../../../src/chain/vm/wasm/wasmModule.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { DEFAULT_CONTEXT, NO_STATE_EXT, P } from "./hostKit.js";
import { contract } from "./wat.js";

/**
 * Byte loops run in bulk (wasm/bulkLoops.ts) against the same loops charged per iteration, with
 * gas in globals and through the host: equal outcomes (burnt/used gas, profile, error, returned
 * memory) for copies in both directions with and without overlap, fills, traps part-way
 * through a loop (out of bounds) and gas running out inside a loop.
 */
const LIMITS = wasmLimitsOf(P);
const variants = {
  host: new ContractCache(LIMITS, 16 * 1024 * 1024, { gasInGlobals: false }),
  perIteration: new ContractCache(LIMITS, 16 * 1024 * 1024, { bulkLoops: false }),
  /** The instrumentation before counter locals and bulk loops. */
  globalsOnly: new ContractCache(LIMITS, 16 * 1024 * 1024, { bulkLoops: false, counterLocals: false }),
  bulk: new ContractCache(LIMITS, 16 * 1024 * 1024),
};
const MEM = P.wasm.initialMemoryPages * 65_536;
const TGAS = 10n ** 12n;

// The loops exactly as asc -Oz emits memmove and memset (contracts/build/*.wasm).
const CODE = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "sha256" (func $sha256 (param i64 i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))`,
  `(data (i32.const 0) "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()-=_+[]{};:,.<>/?|~")
   (func $memmove (param i32 i32 i32) (local i32 i32)
     block
       local.get 2
       local.set 4
       local.get 0
       local.get 1
       i32.eq
       br_if 0
       local.get 0
       local.get 1
       i32.lt_u
       if
         loop
           local.get 4
           if
             local.get 0
             local.tee 2
             i32.const 1
             i32.add
             local.set 0
             local.get 1
             local.tee 3
             i32.const 1
             i32.add
             local.set 1
             local.get 2
             local.get 3
             i32.load8_u
             i32.store8
             local.get 4
             i32.const 1
             i32.sub
             local.set 4
             br 1
           end
         end
       else
         (call $backward (local.get 0) (local.get 1) (local.get 4))
       end
     end)
   ;; The backward loop on its own: callable with any overlap (memmove only uses it for dest > src).
   (func $backward (param i32 i32 i32)
     loop
       local.get 2
       if
         local.get 0
         local.get 2
         i32.const 1
         i32.sub
         local.tee 2
         i32.add
         local.get 1
         local.get 2
         i32.add
         i32.load8_u
         i32.store8
         br 1
       end
     end)
   ;; The forward loop on its own (any overlap); returns where the pointers and temporaries ended.
   (func $forward (param i32 i32 i32) (result i32) (local i32 i32)
     loop
       local.get 2
       if
         local.get 0
         local.tee 3
         i32.const 1
         i32.add
         local.set 0
         local.get 1
         local.tee 4
         i32.const 1
         i32.add
         local.set 1
         local.get 3
         local.get 4
         i32.load8_u
         i32.store8
         local.get 2
         i32.const 1
         i32.sub
         local.set 2
         br 1
       end
     end
     (i32.xor (i32.xor (local.get 0) (i32.mul (local.get 1) (i32.const 3)))
              (i32.xor (i32.mul (local.get 3) (i32.const 5)) (i32.mul (local.get 4) (i32.const 7)))))
   (func $fill (param i32 i32) (result i32) (local i32)
     loop
       local.get 1
       if
         local.get 0
         local.tee 2
         i32.const 1
         i32.add
         local.set 0
         local.get 2
         i32.const 171
         i32.store8
         local.get 1
         i32.const 1
         i32.sub
         local.set 1
         br 1
       end
     end
     (i32.xor (local.get 0) (i32.mul (local.get 2) (i32.const 3))))
   ;; input: kind u32, dest u32, src u32, n u32 (little endian). Returns the first 4 KiB of
   ;; memory, a result word and the sha256 of the last 4 KiB.
   (func (export "run") (local $d i32) (local $s i32) (local $n i32) (local $k i32)
     (call $input (i64.const 0))
     (call $read_register (i64.const 0) (i64.const 8192))
     (local.set $k (i32.load (i32.const 8192)))
     (local.set $d (i32.load (i32.const 8196)))
     (local.set $s (i32.load (i32.const 8200)))
     (local.set $n (i32.load (i32.const 8204)))
     (if (i32.eq (local.get $k) (i32.const 0)) (then (call $memmove (local.get $d) (local.get $s) (local.get $n))))
     (if (i32.eq (local.get $k) (i32.const 1)) (then (i32.store (i32.const 4096) (call $forward (local.get $d) (local.get $s) (local.get $n)))))
     (if (i32.eq (local.get $k) (i32.const 2)) (then (call $backward (local.get $d) (local.get $s) (local.get $n))))
     (if (i32.eq (local.get $k) (i32.const 3)) (then (i32.store (i32.const 4096) (call $fill (local.get $d) (local.get $n)))))
     (call $sha256 (i64.const 4096) (i64.const ${MEM - 4096}) (i64.const 1))
     (call $read_register (i64.const 1) (i64.const 4100))
     (call $value_return (i64.const 4132) (i64.const 0)))`,
);
const HASH = Buffer.from(sha256(CODE)).toString("hex");

const KIND = { memmove: 0, forward: 1, backward: 2, fill: 3 } as const;
type Kind = keyof typeof KIND;

function run(cache: ContractCache, kind: Kind, dest: number, src: number, n: number, context: Partial<VmContext>): VmOutcome {
  const input = new Uint8Array(16);
  const view = new DataView(input.buffer);
  [KIND[kind], dest, src, n].forEach((v, i) => view.setUint32(i * 4, v >>> 0, true));
  return runContract({
    codeHash: HASH,
    code: () => CODE,
    codeLength: CODE.length,
    methodName: "run",
    context: { ...DEFAULT_CONTEXT, input, ...context },
    params: P,
    ext: NO_STATE_EXT,
    newDataId: () => sha256(Uint8Array.of(0)),
    cache,
  });
}

/** The bulk variant's outcome, after checking both per-iteration variants give the same. */
function same(kind: Kind, dest: number, src: number, n: number, prepaidGas = 300n * TGAS): VmOutcome {
  const expected = run(variants.perIteration, kind, dest, src, n, { prepaidGas });
  expect(run(variants.host, kind, dest, src, n, { prepaidGas })).toEqual(expected);
  expect(run(variants.globalsOnly, kind, dest, src, n, { prepaidGas })).toEqual(expected);
  // Twice: a fresh instance, then the warm one (reset after the first call).
  expect(run(variants.bulk, kind, dest, src, n, { prepaidGas })).toEqual(expected);
  expect(run(variants.bulk, kind, dest, src, n, { prepaidGas })).toEqual(expected);
  return expected;
}

describe("byte loops in bulk equal per-iteration metering", () => {
  const cases: [string, Kind, number, number, number][] = [
    ["memmove, disjoint", "memmove", 1000, 0, 90],
    ["memmove, dest < src overlapping (forward loop)", "memmove", 10, 40, 60],
    ["memmove, dest > src overlapping (backward loop)", "memmove", 40, 10, 60],
    ["memmove, n = 0", "memmove", 100, 0, 0],
    ["memmove, dest = src", "memmove", 5, 5, 50],
    ["forward loop, src < dest overlapping (smears: no bulk)", "forward", 20, 5, 70],
    ["forward loop, dest just past the source", "forward", 70, 0, 70],
    ["backward loop, dest < src overlapping (no bulk)", "backward", 5, 20, 70],
    ["fill", "fill", 100, 0, 300],
    ["fill into the last 4 KiB", "fill", MEM - 4096, 0, 4096],
    ["copy into the last 4 KiB", "memmove", MEM - 90, 0, 90],
    ["memmove out of bounds part-way (dest)", "memmove", MEM - 30, 0, 90],
    ["memmove out of bounds part-way (src)", "memmove", 0, MEM - 30, 90],
    ["backward loop out of bounds at once", "backward", MEM - 30, 0, 90],
    ["fill out of bounds part-way", "fill", MEM - 30, 0, 90],
    ["fill past 4 GiB (address wraps)", "fill", 0xffff_fff0, 0, 0x20],
    ["forward loop, n = 0", "forward", 10, 20, 0],
  ];
  it.each(cases)("%s", (_name, kind, dest, src, n) => {
    same(kind, dest, src, n);
  });

  it("the table exercises traps and a full copy", () => {
    expect(same("memmove", MEM - 30, 0, 90).error).toEqual({ kind: "WasmTrap", trap: "MemoryOutOfBounds" });
    const ok = same("memmove", 1000, 0, 90);
    expect(ok.error).toBeUndefined();
    const returned = ok.returnData.kind === "Value" ? ok.returnData.value : new Uint8Array();
    expect(Buffer.from(returned.subarray(1000, 1010)).toString()).toBe("0123456789");
  });

  // Gas running out inside a loop: 40,000 bytes cost about 0.73 Tgas; sweep the prepaid gas
  // over the whole run, finely around the point where the armed gas just covers the bulk charge.
  it("out of gas at many points of a long copy and fill", () => {
    const full = same("memmove", 100_000, 0, 40_000);
    expect(full.error).toBeUndefined();
    const iteration = 22n * BigInt(P.wasm.regularOpCost);
    const outcomes = new Set<string>();
    for (const [kind, total] of [["memmove", full.burntGas], ["fill", same("fill", 100_000, 0, 40_000).burntGas]] as const) {
      const gases: bigint[] = [];
      for (let g = total / 20n; g < total; g += total / 6n) gases.push(g);
      for (let k = -15n; k <= 3n; k++) gases.push(total + k * (iteration / 3n));
      gases.push(total, total - 1n, total + 1n);
      for (const prepaidGas of gases) {
        const o = same(kind, 100_000, 0, 40_000, prepaidGas);
        outcomes.add(o.error === undefined ? "ok" : JSON.stringify(o.error));
      }
    }
    expect([...outcomes].sort()).toEqual(["ok", '{"kind":"HostError","error":{"name":"GasExceeded"}}']);
  });

  it("arbitrary loops, pointers, lengths and gas (property)", () => {
    const address = fc.oneof(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: MEM - 5000, max: MEM + 100 }));
    fc.assert(
      fc.property(
        fc.constantFrom<Kind>("memmove", "forward", "backward", "fill"),
        address,
        address,
        fc.integer({ min: 0, max: 3000 }),
        fc.oneof(fc.constant(300n * TGAS), fc.bigInt({ min: 2_000_000_000n, max: 100_000_000_000n })),
        (kind, dest, src, n, prepaidGas) => {
          same(kind, dest, src, n, prepaidGas);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("finds the loops in every fixture contract (asc's memmove and memset)", () => {
    for (const name of contractNames()) {
      const m = decodeModule(readFileSync(join(import.meta.dirname, "../../../contracts/build", `${name}.wasm`)));
      const ctx = moduleContext(m);
      const kinds = m.code.flatMap((body, i) => {
        const ops = decodeOperators(body.code);
        const type = funcType(ctx, m.functions[i]!);
        return findBulkLoops(ops, analyzeGas(ops, nearcoreFeeModel(LIMITS)), new LocalTypes(type.params, body.locals)).map(
          (l) => `${l.kind}:${l.iterationFee / BigInt(LIMITS.regularOpCost)}`,
        );
      });
      expect(kinds.sort()).toEqual(["backwardCopy:15", "fill:16", "forwardCopy:22"]);
    }
  });
});
