import { describe, expect, it } from "vitest";
import { ContractPanic, MockedBlockchain, contractWasm } from "./support/MockedBlockchain.js";

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");

describe("kv contract (real VM, one-account harness)", () => {
  it("sets, gets, lists by prefix in byte order and removes", () => {
    const kv = new MockedBlockchain(contractWasm("kv"), "kv.test.near");
    for (const k of ["b:2", "a:2", "a:1", "a:10", "é:x"])
      expect(kv.call("set", { key: k, value: `v-${k}` }).logs).toEqual([`set ${k}`]);
    expect(kv.view("get", { key: "a:1" })).toBe("v-a:1");
    expect(kv.view("get", { key: "é:x" })).toBe("v-é:x");
    expect(kv.view("get", { key: "nope" })).toBeNull();
    expect(kv.view("list", { prefix: "a:" })).toEqual([
      { key: "a:1", value: "v-a:1" },
      { key: "a:10", value: "v-a:10" },
      { key: "a:2", value: "v-a:2" },
    ]);
    expect(kv.view("list", { prefix: "a:", from_index: 1, limit: 1 })).toEqual([{ key: "a:10", value: "v-a:10" }]);
    expect(kv.view<{ key: string }[]>("list", {}).map((e) => e.key)).toEqual(["a:1", "a:10", "a:2", "b:2", "é:x"]);
    kv.call("set", { key: "a:1", value: "again" });
    expect(kv.view<unknown[]>("list", { prefix: "a:" }).length).toBe(3);
    expect(kv.view("remove", { key: "a:10" })).toBe(true);
    expect(kv.view("remove", { key: "a:10" })).toBe(false);
    expect(kv.view("list", { prefix: "a:" })).toEqual([
      { key: "a:1", value: "again" },
      { key: "a:2", value: "v-a:2" },
    ]);
    // Data under the raw key, index under 0x00 ‖ first byte.
    expect(Buffer.from(kv.storage.get("a:2")!).toString()).toBe("v-a:2");
    expect([...kv.storage.keys()].filter((k) => k.startsWith("\0")).sort()).toEqual(["\0a", "\0b", "\0\xc3"]);
  });

  it("reads entries written before the contract, and indexes them once set through it", () => {
    const kv = new MockedBlockchain(contractWasm("kv"), "kv.test.near");
    kv.storage.set("a:0001", new TextEncoder().encode("old"));
    expect(kv.view("get", { key: "a:0001" })).toBe("old");
    expect(kv.view("list", { prefix: "a:" })).toEqual([]);
    kv.call("set", { key: "a:0001", value: "new" });
    kv.call("set", { key: "a:0001", value: "newer" });
    expect(kv.view("list", { prefix: "a:" })).toEqual([{ key: "a:0001", value: "newer" }]);
  });

  it("keeps storage usage equal to the stored bytes + 40 per record", () => {
    const kv = new MockedBlockchain(contractWasm("kv"), "kv.test.near");
    kv.call("set", { key: "k", value: "vvv" });
    kv.call("set", { key: "k2", value: "" });
    const expected = 100 + kv.entries().reduce((n, [k, v]) => n + k.length + v.length + 40, 0);
    expect(kv.storageUsage).toBe(BigInt(expected));
  });

  it("round-trips binary keys and values with encoding base64", () => {
    const kv = new MockedBlockchain(contractWasm("kv"), "kv.test.near");
    const key = Uint8Array.of(0xff, 0x01, 0x80);
    const value = Uint8Array.of(0, 1, 2, 0xfe, 0xff);
    kv.call("set", { key: b64(key), value: b64(value), encoding: "base64" });
    expect(kv.view("get", { key: b64(key), encoding: "base64" })).toBe(b64(value));
    expect(kv.view("list", { prefix: b64(Uint8Array.of(0xff)), encoding: "base64" })).toEqual([
      { key: b64(key), value: b64(value) },
    ]);
  });

  it("rejects bad input with clear panics and leaves state untouched", () => {
    const kv = new MockedBlockchain(contractWasm("kv"), "kv.test.near");
    expect(() => kv.call("set", { key: "", value: "x" })).toThrow(new ContractPanic("key must not be empty"));
    expect(() => kv.call("set", { key: "\u0000x", value: "x" })).toThrow(
      "keys starting with 0x00 are reserved for the index",
    );
    expect(() => kv.call("set", { key: "x" })).toThrow("Failed to deserialize input from JSON.");
    expect(() => kv.call("get", { key: "x", encoding: "hex" })).toThrow('encoding must be "utf8" or "base64"');
    expect(() => kv.call("get", { key: "!!!!", encoding: "base64" })).toThrow("invalid base64");
    expect(() => kv.call("list", { limit: 1001 })).toThrow("limit must be at most 1000");
    expect(kv.storage.size).toBe(0);
  });
});
