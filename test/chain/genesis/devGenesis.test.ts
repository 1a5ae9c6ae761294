import { describe, expect, it } from "vitest";
import { DEV_ACCOUNT_BALANCES, DEV_VALIDATOR_STAKE, KV_ACCOUNT, kvFixtureEntries } from "../../../src/chain/genesis/devGenesis.js";
import { fixtureContractCode } from "../../../src/chain/genesis/fixtureContractCode.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { Chain } from "../../../src/chain/node.js";

describe("dev genesis", async () => {
  const chain = await Chain.open({ blockTimeMs: 0, now: () => 1_700_000_000_000 });
  const g = chain.genesisBlock;

  it("funds the dev accounts, each with one deterministic full-access key", () => {
    expect(chain.devAccounts.map((a) => [a.accountId, a.amount])).toEqual(DEV_ACCOUNT_BALANCES);
    for (const a of chain.devAccounts) {
      const kp = devKeyPair(a.accountId);
      expect(a.publicKey).toBe(kp.publicKeyString);
      expect(a.secretKey).toBe(kp.secretKeyString);
      expect(chain.at(g).accessKeys(a.accountId)).toEqual([{ publicKey: a.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]);
    }
    expect(chain.devAccounts.map((a) => a.accountId)).toEqual([
      "test.near", "alice.test.near", "bob.test.near", "carol.test.near",
      "kv.test.near", "ft.test.near", "nft.test.near", "pool.test.near", "relay.test.near",
    ]);
  });

  it("computes storage usage per nearcore (100 per account, 82 per ed25519 full-access key, data + 40)", () => {
    for (const id of ["test.near", "alice.test.near", "bob.test.near", "carol.test.near"]) {
      expect(chain.at(g).account(id)).toEqual({
        amount: DEV_ACCOUNT_BALANCES.find(([a]) => a === id)![1],
        locked: id === "test.near" ? DEV_VALIDATOR_STAKE : 0n,
        codeHash: "11111111111111111111111111111111",
        storageUsage: 182,
      });
    }
    expect(chain.at(g).account(KV_ACCOUNT)?.storageUsage).toBe(100 + 82 + fixtureContractCode("kv").length + 57_824 + 2_101 * 40);
    expect(g.view.header.total_supply).toBe("1000080500000000000000000000000000"); // balances + the validator stake
  });

  it("gives kv.test.near over 2,000 entries and 50 KB under several prefixes, with high bytes in keys", () => {
    const entries = kvFixtureEntries();
    expect(entries.length).toBe(2_101);
    expect(entries.reduce((n, e) => n + e.key.length + e.value.length, 0)).toBe(57_824);
    const prefixes = new Set(entries.map((e) => (e.key[0] === 0xff ? "\\xff" : Buffer.from(e.key.slice(0, 2)).toString("latin1"))));
    expect([...prefixes].sort()).toEqual(["ST", "\\xff", "a:", "b:", "c:"].sort());
    expect(entries.filter((e) => e.key.some((b) => b >= 0x80)).length).toBeGreaterThan(300);
    const all = chain.at(g).contractState(KV_ACCOUNT, { prefix: new Uint8Array() });
    expect(all.values.length).toBe(2_101);
  });

  it("is deterministic for a fixed clock", async () => {
    const again = await Chain.open({ blockTimeMs: 0, now: () => 1_700_000_000_000 });
    expect(again.genesisBlock.hash).toBe(g.hash);
    expect(again.produceBlock().hash).toBe(chain.produceBlock().hash);
  });
});
