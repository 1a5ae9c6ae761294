import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../../src/chain/store/MemoryStateStore.js";
import { ChangeSet } from "../../../src/chain/store/changeSet.js";

describe("MemoryStateStore", () => {
  it("keeps every committed root readable by hash and shares identical roots", () => {
    const store = new MemoryStateStore();
    const empty = store.empty();
    expect(empty.rootHash).toEqual(new Uint8Array(32));
    const a = store.build(["k1", "k2"], ["v1", "v2"]);
    const b = store.commit(a, new ChangeSet().set("k3", "v3").delete("k1").toSorted());
    expect(store.commit(b, { keys: [], values: [] })).toBe(b);
    expect(a.get("k1")).toBe("v1");
    expect(b.get("k1")).toBeUndefined();
    expect(b.get("k3")).toBe("v3");
    expect(store.byRoot(a.rootHash)).toBe(a);
    expect(store.byRoot(b.rootHash)).toBe(b);
    expect(store.byRoot(new Uint8Array(32).fill(1))).toBeUndefined();
    // Same contents reached another way map to the same snapshot.
    const again = store.commit(store.build(["k2"], ["v2"]), new ChangeSet().set("k3", "v3").toSorted());
    expect(again).toBe(b);
    const seen: string[] = [];
    b.scan("k", undefined, (k) => {
      seen.push(k);
    });
    expect(seen).toEqual(["k2", "k3"]);
  });

  it("refuses snapshots from another store", () => {
    const one = new MemoryStateStore();
    const other = { rootHash: new Uint8Array(32), get: () => undefined, scan: () => undefined, prove: () => [] };
    expect(() => one.commit(other, { keys: ["a"], values: ["b"] })).toThrow(/another store/);
  });
});
