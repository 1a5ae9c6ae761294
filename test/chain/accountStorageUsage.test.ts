import { describe, expect, it } from "vitest";
import { fixtureContractCode } from "../../src/chain/genesis/fixtureContractCode.js";
import { Chain } from "../../src/chain/node.js";

describe("Chain.accountStorageUsage", () => {
  it("matches the fully decoded account for every dev account, and is undefined for a missing one", async () => {
    const chain = await Chain.open({ blockTimeMs: 0 });
    const block = chain.head();
    for (const { accountId } of chain.devAccounts) {
      expect(chain.at(block).storageUsage(accountId)).toBe(chain.at(block).account(accountId)!.storageUsage);
    }
    // kv.test.near: account record + one key + its code + 2,101 entries with 40 bytes of overhead each.
    expect(chain.at(block).storageUsage("kv.test.near")).toBe(182 + fixtureContractCode("kv").length + 57_824 + 2_101 * 40);
    expect(chain.at(block).storageUsage("nobody.test.near")).toBeUndefined();
  });
});
