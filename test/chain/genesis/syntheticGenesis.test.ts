import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByKey } from "../../../src/chain/genesis/sortByKey.js";
import { writeSyntheticGenesis } from "../../../src/chain/genesis/writeSyntheticGenesis.js";
import { Chain } from "../../../src/chain/node.js";

describe("writeSyntheticGenesis", () => {
  it("writes a loadable genesis with N contract keys", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shardkit-synth-"));
    try {
      const file = join(dir, "g.json");
      await writeSyntheticGenesis(file, { keys: 1_000, accountId: "bench.test.near", valueBytes: 8 });
      const chain = await Chain.open({ genesisFile: file, blockTimeMs: 0 });
      const g = chain.genesisBlock;
      const state = chain.at(g).contractState("bench.test.near", { prefix: new Uint8Array() });
      expect(state.values).toHaveLength(1_000);
      expect(state.values.every((v) => v.key.length === 32 && v.value.length === 8)).toBe(true);
      expect(chain.at(g).account("bench.test.near")?.storageUsage).toBe(100 + 82 + 1_000 * (32 + 8 + 40));
      expect(chain.chainId).toBe("shardkit-bench");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sortByKey", () => {
  it("orders indices by raw key bytes, like a comparator sort (property)", () => {
    const byte = fc.constantFrom(0, 1, 0x2c, 0x7f, 0x80, 0xff);
    const key = fc.array(byte, { maxLength: 6 }).map((b) => Buffer.from(b).toString("latin1"));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 300 }), fc.constantFrom("", "\x09acc,"), (keys, prefix) => {
        const full = keys.map((k) => prefix + k);
        const order = Int32Array.from(full.map((_, i) => i));
        sortByKey(full, order);
        const got = Array.from(order, (i) => full[i]!);
        expect(got).toEqual([...full].sort());
      }),
      { numRuns: 300 },
    );
  });
});
