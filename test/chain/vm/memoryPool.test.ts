import { describe, expect, it } from "vitest";
import { MemoryPool } from "../../../src/chain/vm/MemoryPool.js";

describe("MemoryPool", () => {
  it("hands back a used memory only once every byte is zero again", () => {
    const pool = new MemoryPool(4, 8);
    const m = pool.take();
    const bytes = new Uint8Array(m.buffer);
    bytes[0] = 1;
    bytes[65_536 * 2 + 17] = 2;
    bytes[bytes.length - 1] = 3;
    pool.give(m);
    const again = pool.take();
    expect(again).toBe(m);
    expect(new Uint8Array(again.buffer).every((b) => b === 0)).toBe(true);
  });

  it("clears returned memories on the next turn of the event loop", async () => {
    const pool = new MemoryPool(2, 4);
    const m = pool.take();
    new Uint8Array(m.buffer)[70_000] = 9;
    pool.give(m);
    await new Promise((resolve) => setImmediate(resolve));
    expect(new Uint8Array(m.buffer)[70_000]).toBe(0);
    expect(pool.take()).toBe(m);
  });

  it("drops memories that grew (a wasm memory cannot shrink) and keeps at most `capacity`", () => {
    const pool = new MemoryPool(1, 8, 1);
    const grown = pool.take();
    grown.grow(1);
    pool.give(grown);
    expect(pool.take()).not.toBe(grown);
    const a = new WebAssembly.Memory({ initial: 1, maximum: 8 });
    const b = new WebAssembly.Memory({ initial: 1, maximum: 8 });
    pool.give(a);
    pool.give(b);
    expect(pool.take()).toBe(a);
    expect(pool.take()).not.toBe(b);
  });
});

describe("MemoryPool with a known written prefix", () => {
  it("clears exactly the written prefix at once and trusts the rest to be zero", () => {
    const pool = new MemoryPool(4, 8);
    const m = pool.take();
    const bytes = new Uint8Array(m.buffer);
    bytes.fill(7, 0, 1000);
    pool.give(m, 1000);
    expect(bytes.every((b) => b === 0)).toBe(true); // cleared synchronously
    expect(pool.take()).toBe(m);
  });

  it("scans a large written prefix page by page before reuse", () => {
    const pool = new MemoryPool(40, 48);
    const m = pool.take();
    const bytes = new Uint8Array(m.buffer);
    bytes[39 * 65_536 + 5] = 1;
    bytes[3 * 65_536] = 2;
    pool.give(m, 40 * 65_536);
    expect(bytes[3 * 65_536]).toBe(2); // deferred
    expect(pool.take()).toBe(m);
    expect(bytes.every((b) => b === 0)).toBe(true);
  });
});
