import { describe, expect, it } from "vitest";
import { ShardLayout, defaultBoundaryAccounts } from "../../src/chain/shards/ShardLayout.js";
import { sha256 } from "../../src/chain/primitives/sha256.js";

describe("shard layout", () => {
  it("routes the dev accounts to distinct shards by default (4 shards: b, c, k)", () => {
    const layout = ShardLayout.withShards(4);
    expect(layout.boundaryAccounts).toEqual(["b", "c", "k"]);
    const table = Object.fromEntries(
      ["alice.test.near", "bob.test.near", "carol.test.near", "kv.test.near", "test.near", "0x.near", "aurora", "b", "zzz"].map((a) => [a, layout.shardIdOf(a)]),
    );
    expect(table).toEqual({
      "alice.test.near": 0,
      "bob.test.near": 1,
      "carol.test.near": 2,
      "kv.test.near": 3,
      "test.near": 3,
      "0x.near": 0, // digits sort before letters
      aurora: 0,
      b: 1, // a boundary belongs to the shard on its right (count of boundaries <= id)
      zzz: 3,
    });
  });

  it.each([
    [1, []],
    [2, ["b"]],
    [3, ["b", "c"]],
    [5, ["b", "c", "k", "t"]],
    [6, ["b", "c", "d", "k", "t"]],
  ])("default boundaries for %i shards", (n, boundaries) => {
    expect(defaultBoundaryAccounts(n)).toEqual(boundaries);
    expect(ShardLayout.withShards(n).numShards).toBe(n);
  });

  it("splits kv.test.near from test.near at 5 shards", () => {
    const layout = ShardLayout.withShards(5);
    expect(layout.shardIdOf("kv.test.near")).toBe(3);
    expect(layout.shardIdOf("test.near")).toBe(4);
  });

  it("has defaults up to 26 shards and asks for boundaries beyond", () => {
    expect(ShardLayout.withShards(26).boundaryAccounts.join("")).toBe("bcdefghijklmnopqrstuvwxyz");
    expect(() => ShardLayout.withShards(27)).toThrow(/pass boundaryAccounts/);
    expect(() => ShardLayout.withShards(0)).toThrow(RangeError);
  });

  it("uses shard ids from the layout (nearcore V2) while keeping shard order", () => {
    // Mainnet-style: ids are not in boundary order.
    const layout = ShardLayout.fromBoundaries(["aurora", "aurora-0", "kkuuue2akv_1630967379.near"], [3, 0, 1, 2]);
    expect(layout.shardIdOf("a.near")).toBe(3);
    expect(layout.shardIdOf("aurora")).toBe(0);
    expect(layout.shardIdOf("aurora-0")).toBe(1);
    expect(layout.shardIdOf("aurora.pool.near")).toBe(1); // "aurora." > "aurora-0"? '.' (0x2e) > '-' (0x2d)
    expect(layout.shardIdOf("near")).toBe(2);
    expect(layout.indexOfShardId(3)).toBe(0);
    expect(layout.indexOfShardId(9)).toBeUndefined();
  });

  it("routes V0 layouts by u64_le(sha256(account)[0..8]) mod n", () => {
    const layout = ShardLayout.hashed(7);
    for (const id of ["alice.near", "bob.near", "x.y"]) {
      const h = sha256(new TextEncoder().encode(id));
      const want = Number(new DataView(h.buffer).getBigUint64(0, true) % 7n);
      expect(layout.shardIdOf(id)).toBe(want);
    }
  });

  it("validates boundaries", () => {
    expect(() => ShardLayout.fromBoundaries(["b", "b"])).toThrow(/strictly increasing/);
    expect(() => ShardLayout.fromBoundaries(["B"])).toThrow(/invalid boundary/);
    expect(() => ShardLayout.fromBoundaries(["b"], [0])).toThrow(/need 2 shard ids/);
    expect(() => ShardLayout.fromBoundaries(["b"], [1, 1])).toThrow(/duplicate shard id/);
  });
});
