import { readFileSync } from "node:fs";
import { Near } from "near-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../../src/chain/primitives/sha256.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

// near-kit 0.19 (npm) against the service `shardkit serve` runs: its status schema, and global
// contracts end to end with its own transaction builder, Borsh and signing.
const KV = readFileSync(new URL("../../contracts/build/kv.wasm", import.meta.url));
const ALICE = "alice.test.near";
const BOB = "bob.test.near";

let service: Service;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 10_000 });
});
afterAll(() => service.close());

const near = (accountId: string) =>
  new Near({
    network: { rpcUrl: service.rpcUrl, networkId: service.chain.chainId },
    privateKey: devKeyPair(accountId).secretKeyString as `ed25519:${string}`,
    defaultSignerId: accountId,
    defaultWaitUntil: "FINAL",
  });

/** A distribution takes a block per shard. */
function distribute(): void {
  for (let i = 0; i <= service.chain.shardLayout.numShards; i++) service.chain.produceBlock();
}

describe("near-kit 0.19", () => {
  it("getStatus parses shardkit's status (node_key included)", async () => {
    const status = await near(ALICE).getStatus();
    expect(status.chain_id).toBe(service.chain.chainId);
    expect(status.sync_info.latest_block_height).toBe(service.chain.head().height);
  });

  it("publishContract, globalContractExists, deployFromPublished, then calls into the account", async () => {
    const alice = near(ALICE);
    expect(await alice.globalContractExists({ accountId: ALICE })).toBe(false);
    const published = await alice.transaction(ALICE).publishContract(KV).send();
    expect((published as { status: unknown }).status).toEqual({ SuccessValue: "" });
    await alice.transaction(ALICE).publishContract(KV, { identifiedBy: "hash" }).send();
    distribute();
    expect(await alice.globalContractExists({ accountId: ALICE })).toBe(true);
    expect(await alice.globalContractExists({ codeHash: base58Encode(sha256(KV)) })).toBe(true);
    expect(await alice.globalContractExists({ codeHash: base58Encode(sha256(Buffer.from("nothing"))) })).toBe(false);

    const bob = near(BOB);
    await bob.transaction(BOB).deployFromPublished({ accountId: ALICE }).send();
    const account = service.chain.at(service.chain.head()).account(BOB);
    expect(account?.globalContractAccountId).toBe(ALICE);
    await bob.call(BOB, "set", { key: "kit", value: "near-kit" });
    expect(await bob.view(BOB, "get", { key: "kit" })).toBe("near-kit");
  });
});
