import { Account, JsonRpcProvider, KeyPair, KeyPairSigner, actions, baseDecode, createTransaction, type KeyPairString } from "near-api-js-7";
import { AccountAlreadyExistsActionError, ContractExecutionError, InvalidNonceError, NotEnoughBalanceError } from "near-api-js-7/rpc-errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT, FT_INIT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

// near-api-js 7 builds, signs (its own Borsh and ed25519) and sends the transactions: the
// write flows of test/compat/writeClients.test.ts (near-api-js 6.5), plus contract calls on the
// fixture contracts and the typed errors it derives from our error JSON.
let service: Service;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;
const provider = () => new JsonRpcProvider({ url: service.rpcUrl });
const account = (accountId: string) =>
  new Account(accountId, provider(), KeyPairSigner.fromSecretKey(devKeyPair(accountId).secretKeyString as KeyPairString));
const ftBalance = (accountId: string) =>
  provider().callFunction<string>({ contractId: FT_ACCOUNT, method: "ft_balance_of", args: { account_id: accountId } });

describe("near-api-js 7 sending transactions", () => {
  it("transfers NEAR across shards", async () => {
    const alice = account("alice.test.near");
    const carol = account("carol.test.near");
    const storage = 182n * 10n ** 19n;
    const before = await alice.getState();
    expect(before.balance).toEqual({ total: 10_000n * NEAR, usedOnStorage: storage, locked: 0n, available: 10_000n * NEAR - storage });
    const outcome = await alice.transfer({ receiverId: "carol.test.near", amount: 2n * NEAR });
    expect(outcome.status).toEqual({ SuccessValue: "" });
    expect(outcome.transaction_outcome.outcome.gas_burnt).toBe(223_182_562_500);
    const spent = 2n * NEAR + 2n * 22_318_256_250_000_000_000n;
    expect((await alice.getState()).balance.total).toBe(10_000n * NEAR - spent);
    expect((await carol.getState()).balance.total).toBe(10_002n * NEAR);
    // The same transaction read back by hash, and its receipt by id.
    const status = await provider().viewTransactionStatus({ txHash: outcome.transaction.hash, accountId: "alice.test.near", waitUntil: "FINAL" });
    expect(status.transaction.hash).toBe(outcome.transaction.hash);
    const receiptId = outcome.transaction_outcome.outcome.receipt_ids[0]!;
    expect((await provider().viewTransactionReceipt(receiptId)).receiver_id).toBe("carol.test.near");
    const withReceipts = await provider().viewTransactionStatusWithReceipts({ txHash: outcome.transaction.hash, accountId: "alice.test.near" });
    expect((withReceipts as { receipts: { receipt_id: string }[] }).receipts.map((r) => r.receipt_id)).toContain(receiptId);
    // The block that included it lists alice's balance change.
    const changes = await provider().blockChanges({ blockId: outcome.transaction_outcome.block_hash });
    expect(changes.changes).toContainEqual({ type: "account_touched", account_id: "alice.test.near" });
  });

  it("creates an account with a key, which then signs its own transaction", async () => {
    const root = account("test.near");
    const key = KeyPair.fromRandom("ed25519");
    const created = await root.createAccount({ newAccountId: "dave.test.near", publicKey: key.getPublicKey(), nearToTransfer: 5n * NEAR });
    expect(created.status).toEqual({ SuccessValue: "" });
    const dave = new Account("dave.test.near", provider(), new KeyPairSigner(key));
    const sent = await dave.transfer({ receiverId: "bob.test.near", amount: NEAR });
    expect(sent.status).toEqual({ SuccessValue: "" });
    expect((await dave.getAccessKeyList()).keys.map((k) => k.public_key)).toEqual([key.getPublicKey().toString()]);
  });

  it("calls the FT contract: storage deposit, then ft_transfer with its NEP-297 event", async () => {
    const root = account("test.near");
    await root.callFunction({
      contractId: FT_ACCOUNT,
      methodName: "storage_deposit",
      args: { account_id: "bob.test.near" },
      deposit: 1_250_000_000_000_000_000_000n,
    });
    const outcome = await root.signAndSendTransaction({
      receiverId: FT_ACCOUNT,
      actions: [actions.functionCall("ft_transfer", { receiver_id: "bob.test.near", amount: "700" }, 30n * TGAS, 1n)],
      waitUntil: "FINAL",
    });
    expect(outcome.status).toEqual({ SuccessValue: "" });
    expect(outcome.receipts_outcome[0]!.outcome.logs).toEqual([
      'EVENT_JSON:{"standard":"nep141","version":"1.0.0","event":"ft_transfer","data":[{"old_owner_id":"test.near","new_owner_id":"bob.test.near","amount":"700"}]}',
    ]);
    expect(await ftBalance("bob.test.near")).toBe("700");
    expect(await ftBalance("test.near")).toBe((FT_INIT.totalSupply - 700n).toString());
  });

  it("reports a panicking contract call as its typed ContractExecutionError, state rolled back", async () => {
    // ft_transfer requires exactly one yoctoNEAR attached: our FunctionCallError JSON becomes its error class.
    const call = account("test.near").callFunctionRaw({
      contractId: FT_ACCOUNT,
      methodName: "ft_transfer",
      args: { receiver_id: "bob.test.near", amount: "5" },
      waitUntil: "FINAL",
    });
    await expect(call).rejects.toBeInstanceOf(ContractExecutionError);
    await expect(call).rejects.toThrow("Smart contract panicked: Requires attached deposit of exactly 1 yoctoNEAR");
    expect(await ftBalance("bob.test.near")).toBe("700");
  });

  it("turns our transaction errors into its typed errors", async () => {
    const root = account("test.near");
    // An action error: the account exists already.
    await expect(
      root.createAccount({ newAccountId: "alice.test.near", publicKey: KeyPair.fromRandom("ed25519").getPublicKey(), nearToTransfer: NEAR }),
    ).rejects.toBeInstanceOf(AccountAlreadyExistsActionError);
    // InvalidTxError variants: more than the balance, and a reused nonce.
    const bob = account("bob.test.near");
    await expect(bob.transfer({ receiverId: "carol.test.near", amount: 1_000_000n * NEAR })).rejects.toBeInstanceOf(NotEnoughBalanceError);
    const key = await bob.getAccessKey(devKeyPair("bob.test.near").publicKeyString);
    const block = await provider().viewBlock({ finality: "final" });
    const signer = KeyPairSigner.fromSecretKey(devKeyPair("bob.test.near").secretKeyString as KeyPairString);
    // The key's current nonce again: already used.
    const stale = createTransaction("bob.test.near", await signer.getPublicKey(), "carol.test.near", key.nonce, [actions.transfer(1n)], baseDecode(block.header.hash));
    const { signedTransaction } = await signer.signTransaction(stale);
    await expect(provider().sendTransaction(signedTransaction)).rejects.toBeInstanceOf(InvalidNonceError);
  });
});
