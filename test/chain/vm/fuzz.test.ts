import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { IMPORT_SIGNATURES } from "../../../src/chain/vm/imports/importSignatures.js";
import { runContract } from "../../../src/chain/vm/runContract.js";
import { ALICE, openChain } from "../runtime/helpers.js";
import { deploy } from "./deploy.js";
import { runtimeParametersFor } from "../../../src/chain/runtime/parameters.js";
import { DEFAULT_CONTEXT } from "./hostKit.js";
import { PROBE } from "./probeContract.js";
import { wat } from "./wat.js";

// The newest protocol, where every import of nearcore's table links (sha3_*, ml_dsa_verify from 87).
const P = runtimeParametersFor(87);
const cache = new ContractCache(wasmLimitsOf(P), 16 * 1024 * 1024);

function run(code: Uint8Array, methodName: string, isView: boolean, input = new Uint8Array()) {
  const storage = new Map<string, Uint8Array>();
  let n = 0;
  return runContract({
    codeHash: Buffer.from(sha256(code)).toString("hex"),
    code: () => code,
    codeLength: code.length,
    methodName,
    context: { ...DEFAULT_CONTEXT, isView, input, promiseResults: [new Uint8Array(3), null], outputDataReceivers: ["x.test.near"] },
    params: P,
    ext: {
      storageGet: (k) => storage.get(Buffer.from(k).toString("hex")),
      storageSet: (k, v) => void storage.set(Buffer.from(k).toString("hex"), v),
      storageRemove: (k) => void storage.delete(Buffer.from(k).toString("hex")),
      validatorStake: () => undefined,
      validatorTotalStake: () => 0n,
    },
    newDataId: () => sha256(Uint8Array.of(n++ & 255)),
    cache,
    timeLimitMs: 200,
  });
}

const ENV = Object.entries(IMPORT_SIGNATURES.env!).filter(([name]) => name !== "gas");
const INTERESTING = [0n, 1n, 2n, 7n, 16n, 64n, 100n, 1024n, 65_535n, 65_536n, 1n << 32n, (1n << 63n) - 1n, -1n, -2n];

/** A module calling random host functions with random (often extreme) arguments. */
const hostCallProgram = fc
  .array(
    fc.record({
      fn: fc.integer({ min: 0, max: ENV.length - 1 }),
      args: fc.array(fc.oneof(fc.constantFrom(...INTERESTING), fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })), { minLength: 9, maxLength: 9 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((calls) => {
    const used = [...new Set(calls.map((c) => c.fn))];
    const imports = used
      .map((i) => {
        const [name, sig] = ENV[i]!;
        const [params, result] = sig.split(":") as [string, string];
        const p = [...params].map((t) => (t === "I" ? "i64" : "i32")).join(" ");
        const r = result === "" ? "" : `(result ${result === "I" ? "i64" : "i32"})`;
        return `(import "env" "${name}" (func $${name} (param ${p}) ${r}))`;
      })
      .join("\n");
    const body = calls
      .map((c) => {
        const [name, sig] = ENV[c.fn]!;
        const [params, result] = sig.split(":") as [string, string];
        const args = [...params].map((t, i) => (t === "I" ? `(i64.const ${c.args[i]!})` : `(i32.const ${Number(BigInt.asIntN(32, c.args[i]!))})`)).join(" ");
        const call = `(call $${name} ${args})`;
        return result === "" ? call : `(drop ${call})`;
      })
      .join("\n");
    return wat(`(module ${imports} (memory (export "memory") 1) (data (i32.const 0) "contract.test.near") (func (export "main") ${body}))`);
  });

describe("fuzz: nothing a contract or a caller sends crashes the host", () => {
  it("random host-function calls with extreme arguments end in an outcome (call and view)", () => {
    fc.assert(
      fc.property(hostCallProgram, fc.boolean(), (code, isView) => {
        const out = run(code, "main", isView);
        expect(out.burntGas).toBeLessThanOrEqual(isView ? P.wasm.maxGasBurntView : DEFAULT_CONTEXT.prepaidGas);
        expect(out.usedGas).toBeGreaterThanOrEqual(out.burntGas);
        if (out.error?.kind === "CompilationError" || out.error?.kind === "LinkError") throw new Error(`fixture did not link: ${JSON.stringify(out.error)}`);
      }),
      { numRuns: 150 },
    );
  });

  it("random bytes and corrupted modules are refused or run, never thrown", () => {
    const base = PROBE;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc.array(fc.record({ at: fc.nat(base.length - 1), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 }).map((edits) => {
            const code = base.slice();
            for (const e of edits) code[e.at] = e.byte;
            return code;
          }),
        ),
        fc.constantFrom("leaf", "fork", "cb", "put", "x", ""),
        fc.uint8Array({ maxLength: 64 }),
        (code, method, input) => {
          run(code, method, false, input);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("random view calls on a deployed contract answer an outcome over a real chain", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, PROBE);
    const head = chain.head();
    fc.assert(
      fc.property(fc.constantFrom("leaf", "fork", "join", "cb", "put", "send", "nope", ""), fc.uint8Array({ maxLength: 128 }), (method, args) => {
        const out = chain.at(head).callFunction(ALICE, method, args);
        expect(typeof out.ok).toBe("boolean");
        if (!out.ok) expect(out.message.startsWith("wasm execution failed with error: ")).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
