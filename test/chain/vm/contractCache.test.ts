import { describe, expect, it } from "vitest";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../../src/chain/runtime/parameters.js";
import { COMPILED_BYTES_PER_WASM_BYTE, ContractCache, cachedContractBytes } from "../../../src/chain/vm/ContractCache.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { contract } from "./wat.js";

const LIMITS = wasmLimitsOf(NEARCORE_RUNTIME_PARAMETERS);

/** A contract whose data segment makes it `pad` bytes bigger. */
const sized = (pad: number): Uint8Array => contract("", `(data (i32.const 0) "${"x".repeat(pad)}") (func (export "main"))`);

describe("ContractCache is bounded by estimated bytes, least recently used first", () => {
  const codes = { a: sized(1000), b: sized(2000), c: sized(3000) };
  const probe = new ContractCache(LIMITS);
  const size = Object.fromEntries(Object.entries(codes).map(([k, code]) => [k, cachedContractBytes(probe.get(k, () => code))])) as Record<keyof typeof codes, number>;

  it("estimates an entry as the prepared binary plus its compiled module", () => {
    const entry = probe.get("a", () => codes.a);
    expect(entry.result.ok).toBe(true);
    if (!entry.result.ok) return;
    expect(size.a).toBe(entry.result.contract.code.length * (1 + COMPILED_BYTES_PER_WASM_BYTE));
    expect(size.a).toBeLessThan(size.b);
    expect(probe.bytes).toBe(size.a + size.b + size.c);
  });

  it("evicts the least recently used entries until the new one fits; hits do not re-read the code", () => {
    const cache = new ContractCache(LIMITS, size.a + size.c);
    let reads = 0;
    const get = (k: keyof typeof codes): void => void cache.get(k, () => (reads++, codes[k]));
    get("a");
    get("b");
    get("a"); // a is now more recent than b
    expect(reads).toBe(2);
    get("c"); // needs room: b goes first, which suffices
    expect([cache.has("a"), cache.has("b"), cache.has("c")]).toEqual([true, false, true]);
    expect(cache.bytes).toBe(size.a + size.c);
    get("b"); // a (older than c) leaves, then c, as b alone fits only with neither
    expect(cache.has("b")).toBe(true);
    expect(cache.bytes).toBeLessThanOrEqual(size.a + size.c);
    expect(cache.bytes).toBe([..."abc"].filter((k) => cache.has(k)).reduce((s, k) => s + size[k as keyof typeof codes], 0));
    expect(reads).toBe(4);
  });

  it("keeps the newest entry even when it alone exceeds the bound", () => {
    const cache = new ContractCache(LIMITS, 10);
    cache.get("a", () => codes.a);
    cache.get("b", () => codes.b);
    expect([cache.has("a"), cache.has("b"), cache.size, cache.bytes]).toEqual([false, true, 1, size.b]);
  });
});
