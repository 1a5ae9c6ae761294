import { Account } from "@near-js/accounts";
import { KeyPair } from "@near-js/crypto";
import { JsonRpcProvider } from "@near-js/providers";
import { KeyPairSigner } from "@near-js/signers";
import type { KeyPairString } from "@near-js/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

// near-api-js builds, signs (its own Borsh and ed25519) and sends the transactions: an
// independent implementation the server must accept unmodified.
let service: Service;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

const NEAR = 10n ** 24n;
const account = (accountId: string) =>
  new Account(
    accountId,
    new JsonRpcProvider({ url: service.rpcUrl }),
    KeyPairSigner.fromSecretKey(devKeyPair(accountId).secretKeyString as KeyPairString),
  );

describe("near-api-js (@near-js/accounts 2.5) sending transactions", () => {
  it("transfers NEAR across shards", async () => {
    const alice = account("alice.test.near");
    const carol = account("carol.test.near");
    // Account.getState() reads EXPERIMENTAL_protocol_config's storage_amount_per_byte (10^19):
    // the dev accounts hold 10,000 NEAR, nothing locked, and 182 bytes of storage.
    const storage = 182n * 10n ** 19n;
    const before = await alice.getState();
    expect(before.storageUsage).toBe(182);
    expect(before.balance).toEqual({ total: 10_000n * NEAR, usedOnStorage: storage, locked: 0n, available: 10_000n * NEAR - storage });
    const outcome = await alice.transfer({ receiverId: "carol.test.near", amount: 2n * NEAR });
    expect(outcome.status).toEqual({ SuccessValue: "" });
    expect(outcome.transaction_outcome.outcome.gas_burnt).toBe(223_182_562_500);
    const spent = 2n * NEAR + 2n * 22_318_256_250_000_000_000n;
    const after = await alice.getState();
    expect(after.balance.total).toBe(10_000n * NEAR - spent);
    expect(after.balance.available).toBe(10_000n * NEAR - spent - storage);
    const received = await carol.getState();
    expect(received.balance.total).toBe(10_002n * NEAR);
    expect(received.balance.available).toBe(10_002n * NEAR - storage);
  });

  it("creates an account with a key, which then signs its own transaction", async () => {
    const root = account("test.near");
    const key = KeyPair.fromRandom("ed25519");
    const created = await root.createAccount("dave.test.near", key.getPublicKey().toString(), 5n * NEAR);
    expect(created.status).toEqual({ SuccessValue: "" });
    const dave = new Account("dave.test.near", new JsonRpcProvider({ url: service.rpcUrl }), new KeyPairSigner(key));
    const sent = await dave.transfer({ receiverId: "bob.test.near", amount: NEAR });
    expect(sent.status).toEqual({ SuccessValue: "" });
    const keys = await dave.getAccessKeyList();
    expect(keys.keys.map((k) => k.public_key)).toEqual([key.getPublicKey().toString()]);
  });
});
