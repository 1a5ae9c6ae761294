/**
 * min_contract_size_per_local (87.yaml: 2): from protocol 87 a contract may declare at most
 * ⌊code bytes / 2⌋ locals in all (besides max_locals_per_contract), checked while preparing
 * (PrepareError TooManyLocals, nearcore prepare tests `locals_limit_depends_on_contract_size`:
 * padding the code with a custom section lifts the bound). The cache keeps the two protocols'
 * preparations of one code apart.
 */
import { describe, expect, it } from "vitest";
import { runtimeParametersFor } from "../../../src/chain/runtime/parameters.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { prepareContract } from "../../../src/chain/vm/wasm/prepareContract.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { ALICE, openChain, outcomeOf, settle, submit, BOB } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { runAt } from "./protocolRun.js";
import { contract } from "./wat.js";

const LOCALS = 100;
/** One function declaring `LOCALS` i64 locals (one local group: a few bytes of code). */
const COMPACT = contract("", `(func (export "main") (local ${"i64 ".repeat(LOCALS)}))`);

/** `code` with a custom section appended so that it is exactly `total` bytes long. */
function paddedTo(code: Uint8Array, total: number): Uint8Array {
  // id 0, a two-byte LEB size (128..16383), name length 1, name "p", then zeros.
  const size = total - code.length - 3;
  if (size < 128 || size > 16383) throw new RangeError("padding out of this helper's range");
  return Uint8Array.from([...code, 0, (size & 0x7f) | 0x80, size >> 7, 1, 0x70, ...new Array<number>(size - 2).fill(0)]);
}

const TOO_MANY = { kind: "CompilationError", error: { kind: "PrepareError", error: "TooManyLocals" } };

describe("min_contract_size_per_local", () => {
  it("the limits of 87 carry it, 86's do not", () => {
    expect(wasmLimitsOf(runtimeParametersFor(87)).minContractSizePerLocal).toBe(2);
    expect(wasmLimitsOf(runtimeParametersFor(86)).minContractSizePerLocal).toBeUndefined();
  });

  it("100 locals in under 200 bytes: TooManyLocals at 87, prepared at 86", () => {
    expect(COMPACT.length).toBeLessThan(2 * LOCALS);
    expect(prepareContract(COMPACT, wasmLimitsOf(runtimeParametersFor(87)))).toEqual({ ok: false, error: "TooManyLocals" });
    expect(prepareContract(COMPACT, wasmLimitsOf(runtimeParametersFor(86))).ok).toBe(true);
  });

  it("the bound is ⌊length / 2⌋ of the whole code, custom sections included: 200 bytes hold 100 locals, 199 do not", () => {
    const limits = wasmLimitsOf(runtimeParametersFor(87));
    expect(paddedTo(COMPACT, 2 * LOCALS).length).toBe(200);
    expect(prepareContract(paddedTo(COMPACT, 2 * LOCALS), limits).ok).toBe(true);
    expect(prepareContract(paddedTo(COMPACT, 2 * LOCALS - 1), limits)).toEqual({ ok: false, error: "TooManyLocals" });
  });

  it("one code through one cache: a CompilationError at 87, a successful call at 86, in either order", () => {
    expect(runAt(86, COMPACT).error).toBeUndefined();
    expect(runAt(87, COMPACT).error).toEqual(TOO_MANY);
    expect(runAt(86, COMPACT).error).toBeUndefined();
    const cache = new ContractCache(wasmLimitsOf(runtimeParametersFor(87)));
    expect(cache.get("h", () => COMPACT).result.ok).toBe(false);
    expect(cache.get("h", () => COMPACT, wasmLimitsOf(runtimeParametersFor(86))).result.ok).toBe(true);
    expect(cache.size).toBe(2);
  });

  it("on a chain at protocol 87 the call fails with PrepareError TooManyLocals; at 86 it succeeds", async () => {
    for (const [version, status] of [
      [87, { Failure: { ActionError: { index: 0, kind: { FunctionCallError: { CompilationError: { PrepareError: "TooManyLocals" } } } } } }],
      [86, { SuccessValue: "" }],
    ] as const) {
      const chain = await openChain({ protocolVersion: version });
      deploy(chain, ALICE, COMPACT);
      expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("main")]))).status).toEqual(status);
    }
  });
});
