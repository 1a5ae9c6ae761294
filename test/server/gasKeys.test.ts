import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../src/chain/runtime/parameters.js";
import { encodeSignedTransaction, signTransaction, type Action } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, GAS_PRICE, NEAR, PURCHASE_PRICE, TRANSFER_GAS, keyOf, signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

// Gas keys (NEP-611, protocol 85) over real HTTP: added with AddKey, funded with
// TransferToGasKey, signing V1 transactions with per-index nonces (gas from the key, deposits
// from the account, refunds back to the key), withdrawn, deleted; the views and errors as
// nearcore sends them.
const f = NEARCORE_RUNTIME_PARAMETERS.fees;
const GAS = keyOf("gas key");
const GAS_KEY = formatPublicKey(GAS.publicKey);
const EMPTY = keyOf("empty gas key");
const NUM_NONCES = 3;
// alice.test.near: 15 bytes; an ed25519 key is stored as 33 bytes.
const NONCE_KEY_BYTES = 1 + 15 + 1 + 33 + 2; // column ‖ account ‖ ',' ‖ key ‖ u16 index
const KEY_TRIE_BYTES = 1 + 15 + 1 + 33;
// Storage: the key (33 + borsh nonce/tag/GasKeyInfo 27 + 40) and per nonce 33 + 2 + 8 + 40.
const GAS_KEY_STORAGE = 33 + 27 + 40 + NUM_NONCES * (33 + 2 + 8 + 40);

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const send = (signed: Uint8Array) => rpcResult(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "FINAL" });
const refused = async (signed: Uint8Array) => (await rpcError(url, "send_tx", { signed_tx_base64: b64(signed) })).error.data;
const account = (accountId: string) => rpcResult(url, "query", { request_type: "view_account", finality: "optimistic", account_id: accountId });
const balance = async (accountId: string) => BigInt((await account(accountId)).amount);
const viewKey = (publicKey: string) =>
  rpcResult(url, "query", { request_type: "view_access_key", finality: "optimistic", account_id: ALICE, public_key: publicKey });
const keyBalance = async (publicKey = GAS_KEY) => BigInt((await viewKey(publicKey)).permission.GasKeyFullAccess.balance);
const nonces = async (): Promise<number[]> =>
  (await rpcResult(url, "EXPERIMENTAL_view_gas_key_nonces", { finality: "optimistic", account_id: ALICE, public_key: GAS_KEY })).nonces;
const addGasKey = (publicKey = GAS.publicKey, numNonces = NUM_NONCES): Action => ({
  type: "AddKey",
  publicKey,
  accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces } } },
});

/** A V1 transaction signed with the gas key at `nonceIndex`. */
function gasKeyTx(actions: Action[], nonce: bigint, nonceIndex: number, key = GAS): Uint8Array {
  const tx = {
    version: 1 as const,
    signerId: ALICE,
    publicKey: key.publicKey,
    nonce: { kind: "GasKeyNonce" as const, nonce, nonceIndex },
    receiverId: BOB,
    blockHash: service.chain.head().hashBytes,
    actions,
    nonceMode: "Monotonic" as const,
  };
  return encodeSignedTransaction(signTransaction(tx, key));
}

describe("gas keys over JSON-RPC", () => {
  let initialNonce: number;

  it("AddKey of a gas key: nearcore's fees, storage for the key and its nonces, nonces at (height − 1) × 10^6", async () => {
    const usageBefore = (await account(ALICE)).storage_usage;
    const added = await send(signedTx(service.chain, ALICE, ALICE, [addGasKey()]));
    expect(added.status).toEqual({ SuccessValue: "" });
    expect(added.transaction.actions).toEqual([
      { AddKey: { public_key: GAS_KEY, access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: "0", num_nonces: 3 } } } } },
    ]);
    // Send: the full-access key fee plus action_gas_key_byte × 18 (GasKeyInfo).
    const send_ = f.actionReceiptCreation.sendSir + f.addFullAccessKey.sendSir + f.gasKeyPerByte.sendSir * 18n;
    expect(added.transaction_outcome.outcome.gas_burnt).toBe(Number(send_));
    // Execution: per nonce action_gas_key_nonce_write_base + action_gas_key_byte × (nonce key + u64).
    const perNonce = f.gasKeyNonceWriteBase.execution + f.gasKeyPerByte.execution * BigInt(NONCE_KEY_BYTES + 8);
    const exec = f.actionReceiptCreation.execution + f.addFullAccessKey.execution + perNonce * BigInt(NUM_NONCES);
    expect(added.receipts_outcome[0].outcome.gas_burnt).toBe(Number(exec));
    expect((await account(ALICE)).storage_usage).toBe(usageBefore + GAS_KEY_STORAGE);

    const height = (await rpcResult(url, "block", { block_id: added.receipts_outcome[0].block_hash })).header.height;
    initialNonce = (height - 1) * 1_000_000;
    expect(await viewKey(GAS_KEY)).toMatchObject({ nonce: 0, permission: { GasKeyFullAccess: { balance: "0", num_nonces: 3 } } });
    expect(await nonces()).toEqual([initialNonce, initialNonce, initialNonce]);
    const viaQuery = await rpcResult(url, "query", {
      request_type: "view_gas_key_nonces",
      finality: "optimistic",
      account_id: ALICE,
      public_key: GAS_KEY,
    });
    expect(viaQuery.nonces).toEqual([initialNonce, initialNonce, initialNonce]);
    expect(typeof viaQuery.block_height).toBe("number");
    // The list shows the key once: its nonce rows are not keys.
    const list = await rpcResult(url, "query", { request_type: "view_access_key_list", finality: "optimistic", account_id: ALICE });
    expect(list.keys.filter((k: { public_key: string }) => k.public_key === GAS_KEY)).toEqual([
      { public_key: GAS_KEY, access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: "0", num_nonces: 3 } } } },
    ]);
    const changes = await rpcResult(url, "EXPERIMENTAL_changes", {
      changes_type: "all_access_key_changes",
      block_id: added.receipts_outcome[0].block_hash,
      account_ids: [ALICE],
    });
    const cause = { type: "receipt_processing", receipt_hash: added.receipts_outcome[0].id };
    expect(changes.changes.filter((c: { change: { public_key: string } }) => c.change.public_key === GAS_KEY)).toEqual([
      {
        cause,
        type: "access_key_update",
        change: { account_id: ALICE, public_key: GAS_KEY, access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: "0", num_nonces: 3 } } } },
      },
      ...[0, 1, 2].map((index) => ({
        cause,
        type: "gas_key_nonce_update",
        change: { account_id: ALICE, public_key: GAS_KEY, index, nonce: initialNonce },
      })),
    ]);
  });

  it("TransferToGasKey from another account funds the key, at nearcore's gas-key transfer fees", async () => {
    const funded = await send(
      signedTx(service.chain, BOB, ALICE, [{ type: "TransferToGasKey", publicKey: GAS.publicKey, deposit: 2n * NEAR }]),
    );
    expect(funded.status).toEqual({ SuccessValue: "" });
    expect(funded.transaction.actions).toEqual([{ TransferToGasKey: { public_key: GAS_KEY, deposit: (2n * NEAR).toString() } }]);
    expect(funded.transaction_outcome.outcome.gas_burnt).toBe(
      Number(f.actionReceiptCreation.sendNotSir + f.gasKeyTransferBase.sendNotSir + f.gasKeyPerByte.sendNotSir * 33n),
    );
    // Execution: base + action_gas_key_byte × (the key's trie key + the smallest gas key, 27 bytes).
    expect(funded.receipts_outcome[0].outcome.gas_burnt).toBe(
      Number(f.actionReceiptCreation.execution + f.gasKeyTransferBase.execution + f.gasKeyPerByte.execution * BigInt(KEY_TRIE_BYTES + 27)),
    );
    expect(await keyBalance()).toBe(2n * NEAR);
  });

  it("a transaction signed with the gas key pays its gas from the key and its deposit from the account", async () => {
    const [aliceBefore, bobBefore, keyBefore] = [await balance(ALICE), await balance(BOB), await keyBalance()];
    const nonce = BigInt(initialNonce) + 7n;
    const sent = await send(gasKeyTx([{ type: "Transfer", deposit: NEAR }], nonce, 1));
    expect(sent.status).toEqual({ SuccessValue: "" });
    expect(sent.transaction).toMatchObject({ public_key: GAS_KEY, nonce: Number(nonce), nonce_index: 1 });
    expect(sent.transaction_outcome.outcome.gas_burnt).toBe(Number(TRANSFER_GAS));
    // The key bought the gas (burnt part at the gas price, the rest at the purchase price);
    // the unused price surplus came back to the key, not to the account.
    expect(await keyBalance()).toBe(keyBefore - 2n * TRANSFER_GAS * GAS_PRICE);
    expect(await balance(ALICE)).toBe(aliceBefore - NEAR);
    expect(await balance(BOB)).toBe(bobBefore + NEAR);
    expect(await nonces()).toEqual([initialNonce, Number(nonce), initialNonce]);
    expect((await viewKey(GAS_KEY)).nonce).toBe(0);
    // The transaction's block wrote the key (its balance) and the one nonce it used.
    const single = await rpcResult(url, "EXPERIMENTAL_changes", {
      changes_type: "single_access_key_changes",
      block_id: sent.transaction_outcome.block_hash,
      keys: [{ account_id: ALICE, public_key: GAS_KEY }],
    });
    expect(single.changes.map((c: { type: string; change: { index?: number; nonce?: number } }) => [c.type, c.change.index, c.change.nonce])).toEqual([
      ["access_key_update", undefined, undefined],
      ["gas_key_nonce_update", 1, Number(nonce)],
    ]);
  });

  it("refuses gas-key transactions with nearcore's errors", async () => {
    const used = BigInt(initialNonce) + 7n;
    expect(await refused(gasKeyTx([{ type: "Transfer", deposit: 1n }], used, 1))).toEqual({
      TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: Number(used), ak_nonce: Number(used) } } },
    });
    expect(await refused(gasKeyTx([{ type: "Transfer", deposit: 1n }], used + 1n, 3))).toEqual({
      TxExecutionError: { InvalidTxError: { InvalidNonceIndex: { tx_nonce_index: 3, num_nonces: 3 } } },
    });
    // A gas key never signs with a plain nonce.
    expect(await refused(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }], { key: GAS, nonce: used + 1n }))).toEqual({
      TxExecutionError: { InvalidTxError: { InvalidNonceIndex: { tx_nonce_index: null, num_nonces: 3 } } },
    });
    // Deposits come from the account: more than it has is refused at submission.
    const aliceAmount = await balance(ALICE);
    expect(await refused(gasKeyTx([{ type: "Transfer", deposit: aliceAmount + 1n }], used + 1n, 0))).toEqual({
      TxExecutionError: {
        InvalidTxError: {
          NotEnoughBalanceForDeposit: { signer_id: ALICE, balance: aliceAmount.toString(), cost: (aliceAmount + 1n).toString(), reason: "NotEnoughBalance" },
        },
      },
    });
    // A key with nothing on it cannot buy the gas.
    expect((await send(signedTx(service.chain, ALICE, ALICE, [addGasKey(EMPTY.publicKey, 1)]))).status).toEqual({ SuccessValue: "" });
    const emptyNonce = BigInt((await rpcResult(url, "EXPERIMENTAL_view_gas_key_nonces", { finality: "optimistic", account_id: ALICE, public_key: formatPublicKey(EMPTY.publicKey) })).nonces[0]);
    const gasCost = TRANSFER_GAS * GAS_PRICE + TRANSFER_GAS * PURCHASE_PRICE;
    expect(await refused(gasKeyTx([{ type: "Transfer", deposit: 1n }], emptyNonce + 1n, 0, EMPTY))).toEqual({
      TxExecutionError: { InvalidTxError: { NotEnoughGasKeyBalance: { signer_id: ALICE, balance: "0", cost: gasCost.toString() } } },
    });
  });

  it("UNKNOWN_GAS_KEY for a plain access key or a missing one, with nearcore's two messages", async () => {
    const plain = formatPublicKey(keyOf("not there").publicKey);
    const typed = await rpcError(url, "EXPERIMENTAL_view_gas_key_nonces", { finality: "final", account_id: ALICE, public_key: plain });
    expect(typed.error.cause).toMatchObject({ name: "UNKNOWN_GAS_KEY", info: { public_key: plain } });
    expect(typed.error.data).toBe(`gas key for public key ${plain} does not exist while viewing`);
    const query = await rpcError(url, "query", { request_type: "view_gas_key_nonces", finality: "final", account_id: ALICE, public_key: plain });
    expect(query.error.name).toBe("HANDLER_ERROR");
    expect(query.error.data).toBe(`Gas key for public key ${plain} has never been observed on the node`);
  });

  it("TransferToGasKey to a plain key fails as GasKeyDoesNotExist", async () => {
    const plain = keyOf("plain key");
    expect((await send(signedTx(service.chain, ALICE, ALICE, [{ type: "AddKey", publicKey: plain.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]))).status).toEqual({ SuccessValue: "" });
    const failed = await send(signedTx(service.chain, BOB, ALICE, [{ type: "TransferToGasKey", publicKey: plain.publicKey, deposit: NEAR }]));
    expect(failed.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { GasKeyDoesNotExist: { account_id: ALICE, public_key: formatPublicKey(plain.publicKey) } } } },
    });
  });

  it("WithdrawFromGasKey moves balance back to the account; too much, or from another account, fails", async () => {
    const [aliceBefore, keyBefore] = [await balance(ALICE), await keyBalance()];
    const amount = keyBefore - NEAR / 2n;
    const withdrawn = await send(signedTx(service.chain, ALICE, ALICE, [{ type: "WithdrawFromGasKey", publicKey: GAS.publicKey, amount }]));
    expect(withdrawn.status).toEqual({ SuccessValue: "" });
    expect(withdrawn.transaction.actions).toEqual([{ WithdrawFromGasKey: { public_key: GAS_KEY, amount: amount.toString() } }]);
    expect(await keyBalance()).toBe(NEAR / 2n);
    const gas = BigInt(withdrawn.transaction_outcome.outcome.gas_burnt) + BigInt(withdrawn.receipts_outcome[0].outcome.gas_burnt);
    expect(await balance(ALICE)).toBe(aliceBefore + amount - gas * GAS_PRICE);

    const tooMuch = await send(signedTx(service.chain, ALICE, ALICE, [{ type: "WithdrawFromGasKey", publicKey: GAS.publicKey, amount: NEAR }]));
    expect(tooMuch.status).toEqual({
      Failure: {
        ActionError: {
          index: 0,
          kind: { InsufficientGasKeyBalance: { account_id: ALICE, public_key: GAS_KEY, balance: (NEAR / 2n).toString(), required: NEAR.toString() } },
        },
      },
    });
    const foreign = await send(signedTx(service.chain, BOB, ALICE, [{ type: "WithdrawFromGasKey", publicKey: GAS.publicKey, amount: 1n }]));
    expect(foreign.status).toEqual({ Failure: { ActionError: { index: 0, kind: { ActorNoPermission: { account_id: ALICE, actor_id: BOB } } } } });
  });

  it("DeleteKey refuses to burn more than 1 NEAR, else burns the balance and frees the key and its nonces", async () => {
    const topUp = await send(signedTx(service.chain, BOB, ALICE, [{ type: "TransferToGasKey", publicKey: GAS.publicKey, deposit: NEAR }]));
    expect(topUp.status).toEqual({ SuccessValue: "" });
    const tooHigh = await send(signedTx(service.chain, ALICE, ALICE, [{ type: "DeleteKey", publicKey: GAS.publicKey }]));
    expect(tooHigh.status).toEqual({
      Failure: {
        ActionError: { index: 0, kind: { GasKeyBalanceTooHigh: { account_id: ALICE, public_key: GAS_KEY, balance: (NEAR + NEAR / 2n).toString() } } },
      },
    });
    expect((await send(signedTx(service.chain, ALICE, ALICE, [{ type: "WithdrawFromGasKey", publicKey: GAS.publicKey, amount: NEAR / 2n + 5n }]))).status).toEqual({
      SuccessValue: "",
    });
    const left = await keyBalance();
    expect(left).toBe(NEAR - 5n);
    const usageBefore = (await account(ALICE)).storage_usage;
    const deleted = await send(signedTx(service.chain, ALICE, ALICE, [{ type: "DeleteKey", publicKey: GAS.publicKey }]));
    expect(deleted.status).toEqual({ SuccessValue: "" });
    const receipt = deleted.receipts_outcome[0].outcome;
    expect(BigInt(receipt.tokens_burnt)).toBe(BigInt(receipt.gas_burnt) * GAS_PRICE + left);
    expect((await account(ALICE)).storage_usage).toBe(usageBefore - GAS_KEY_STORAGE);
    expect((await viewKey(GAS_KEY)).error).toBe(`access key ${GAS_KEY} does not exist while viewing`);
    expect((await rpcError(url, "EXPERIMENTAL_view_gas_key_nonces", { finality: "optimistic", account_id: ALICE, public_key: GAS_KEY })).error.cause.name).toBe(
      "UNKNOWN_GAS_KEY",
    );
  });
});
