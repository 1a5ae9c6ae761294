import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { HARNESS_DIR, compileFile } from "../../contracts/build.js";

/** sdk/u128 (compiled with the contracts' flags) against BigInt. */
const MASK64 = (1n << 64n) - 1n;
const MAX = (1n << 128n) - 1n;

class Panic extends Error {}

let exports: Record<string, unknown>;
let returned = "";

beforeAll(async () => {
  const wasm = await compileFile(join(HARNESS_DIR, "u128.ts"));
  const memory = () => exports["memory"] as WebAssembly.Memory;
  const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), {
    env: {
      panic_utf8: (len: bigint, ptr: bigint) => {
        throw new Panic(Buffer.from(new Uint8Array(memory().buffer, Number(ptr), Number(len))).toString());
      },
      value_return: (len: bigint, ptr: bigint) => {
        returned = Buffer.from(new Uint8Array(memory().buffer, Number(ptr), Number(len))).toString();
      },
      abort: () => {
        throw new Panic("abort");
      },
    },
  });
  exports = instance.exports as Record<string, unknown>;
});

const limbs = (v: bigint): bigint[] => [v & MASK64, v >> 64n];
const fn = (name: string) => exports[name] as (...args: bigint[]) => unknown;
/** The (lo, hi) globals; i64 values reach JS signed, so read them back as u64. */
const u64Global = (name: string) => BigInt.asUintN(64, (exports[name] as WebAssembly.Global).value as bigint);
const result = () => u64Global("lo") + (u64Global("hi") << 64n);
/** Runs op on u128 arguments: its result, or "panic: …" when the contract code panics. */
function run(op: string, ...args: bigint[]): bigint | string {
  try {
    fn(op)(...args.flatMap(limbs));
    return result();
  } catch (e) {
    if (e instanceof Panic) return `panic: ${e.message}`;
    throw e;
  }
}

// Values near the limb boundaries are where carries break.
const u128 = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX }),
  fc.bigInt({ min: 0n, max: MASK64 }),
  fc.constantFrom(0n, 1n, MASK64, MASK64 + 1n, MAX, MAX - 1n, 10n ** 24n, 10n ** 38n),
);

describe("sdk/u128", () => {
  it("adds, subtracts and multiplies exactly, panicking on overflow/underflow", () => {
    fc.assert(
      fc.property(u128, u128, (a, b) => {
        expect(run("add", a, b)).toBe(a + b <= MAX ? a + b : "panic: u128 addition overflow");
        expect(run("sub", a, b)).toBe(a >= b ? a - b : "panic: u128 subtraction underflow");
        expect(run("mul", a, b)).toBe(a * b <= MAX ? a * b : "panic: u128 multiplication overflow");
        expect(fn("lt")(...limbs(a), ...limbs(b))).toBe(a < b ? 1 : 0);
      }),
      { numRuns: 500 },
    );
  });

  it("mulDiv and mulDivCeil use a 256-bit product", () => {
    fc.assert(
      fc.property(u128, u128, u128, (a, b, c) => {
        if (c === 0n) {
          expect(run("mulDiv", a, b, c)).toBe("panic: u128 division by zero");
          return;
        }
        const floor = (a * b) / c;
        const ceil = (a * b + c - 1n) / c;
        expect(run("mulDiv", a, b, c)).toBe(floor <= MAX ? floor : "panic: u128 multiplication overflow");
        if (ceil <= MAX) expect(run("mulDivCeil", a, b, c)).toBe(ceil);
      }),
      { numRuns: 500 },
    );
  });

  it("formats and parses decimal strings (near-sdk's U128 JSON form)", () => {
    const memory = () => new Uint8Array((exports["memory"] as WebAssembly.Memory).buffer);
    const parse = (text: string): bigint | undefined => {
      const bytes = Buffer.from(text);
      const ptr = (exports["scratch"] as (n: number) => number)(bytes.length);
      memory().set(bytes, ptr);
      return (exports["parse"] as (p: number, n: number) => number)(ptr, bytes.length) === 1 ? result() : undefined;
    };
    fc.assert(
      fc.property(u128, (a) => {
        fn("toDecimal")(...limbs(a));
        expect(returned).toBe(a.toString());
        expect(parse(a.toString())).toBe(a);
      }),
      { numRuns: 500 },
    );
    for (const bad of ["", "01", "-1", "1.5", " 1", "1e3", (MAX + 1n).toString(), "9".repeat(40)])
      expect(parse(bad), bad).toBeUndefined();
  });
});
