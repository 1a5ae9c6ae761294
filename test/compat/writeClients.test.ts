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
    // Account.getState() also needs EXPERIMENTAL_protocol_config, which is not served yet.
    const balance = async () => BigInt((await alice.provider.viewAccount("alice.test.near", { finality: "optimistic" })).amount);
    const before = await balance();
    const outcome = await alice.transfer({ receiverId: "carol.test.near", amount: 2n * NEAR });
    expect(outcome.status).toEqual({ SuccessValue: "" });
    expect(outcome.transaction_outcome.outcome.gas_burnt).toBe(223_182_562_500);
    const after = await balance();
    expect(before - after).toBe(2n * NEAR + 2n * 22_318_256_250_000_000_000n);
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
