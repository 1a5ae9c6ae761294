import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { mlDsa65FromSeed } from "@shardkit/primitives/mlDsa65";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../src/chain/runtime/parameters.js";
import { signDelegateAction, type NonDelegateAction } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, GAS_PRICE, NEAR, TRANSFER_GAS, signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

// ML-DSA-65 access keys (protocol 85, PostQuantumSignatures) over real HTTP: added with AddKey,
// signing a transfer and a delegate action, viewed, listed by their SHA3-256 handle, deleted.
const VERIFICATION_GAS = 100_000_000_000n; // ml_dsa_65_verification_cost
const ML = mlDsa65FromSeed(createHash("sha256").update("shardkit test: ml-dsa-65 key").digest());
const ML_KEY = formatPublicKey(ML.publicKey);
// nearcore's handle: SHA3-256("near:ml-dsa-65-pubkey-hash:v1" ‖ raw key), computed here with OpenSSL.
const ML_HANDLE = `ml-dsa-65-hash:${base58Encode(createHash("sha3-256").update("near:ml-dsa-65-pubkey-hash:v1").update(ML.publicKey.data).digest())}`;
const FULL_ACCESS_KEY_BYTES = 33 + 9 + 40; // handle + borsh(nonce, FullAccess) + num_extra_bytes_record

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const send = (signed: Uint8Array) => rpcResult(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "FINAL" });
const account = (accountId: string) => rpcResult(url, "query", { request_type: "view_account", finality: "optimistic", account_id: accountId });
const balance = async (accountId: string) => BigInt((await account(accountId)).amount);
const viewKey = (publicKey: string) =>
  rpcResult(url, "query", { request_type: "view_access_key", finality: "optimistic", account_id: ALICE, public_key: publicKey });
const keyList = async (): Promise<string[]> =>
  (await rpcResult(url, "query", { request_type: "view_access_key_list", finality: "optimistic", account_id: ALICE })).keys.map(
    (k: { public_key: string }) => k.public_key,
  );
const keyChanges = async (blockHash: string) =>
  (await rpcResult(url, "EXPERIMENTAL_changes", { changes_type: "all_access_key_changes", block_id: blockHash, account_ids: [ALICE] })).changes.filter(
    (c: { change: { public_key: string } }) => c.change.public_key === ML_HANDLE,
  );
const transfer = (deposit: bigint): NonDelegateAction[] => [{ type: "Transfer", deposit }];

describe("ML-DSA-65 access keys over JSON-RPC", () => {
  it("AddKey stores the key by its handle: view_access_key takes the full key, lists and changes show the handle", async () => {
    const usageBefore = (await account(ALICE)).storage_usage;
    const added = await send(
      signedTx(service.chain, ALICE, ALICE, [{ type: "AddKey", publicKey: ML.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]),
    );
    expect(added.status).toEqual({ SuccessValue: "" });
    expect(added.transaction.actions).toEqual([{ AddKey: { public_key: ML_KEY, access_key: { nonce: 0, permission: "FullAccess" } } }]);
    // Storage is paid for the 33-byte handle, not the 1,953-byte key (nearcore trie_id_len).
    expect((await account(ALICE)).storage_usage).toBe(usageBefore + FULL_ACCESS_KEY_BYTES);

    const view = await viewKey(ML_KEY);
    expect(view.permission).toBe("FullAccess");
    const receiptBlock = added.receipts_outcome[0].block_hash;
    const height = (await rpcResult(url, "block", { block_id: receiptBlock })).header.height;
    expect(view.nonce).toBe((height - 1) * 1_000_000);
    expect(await keyList()).toContain(ML_HANDLE);
    expect(await keyList()).not.toContain(ML_KEY);

    expect(await keyChanges(receiptBlock)).toEqual([
      {
        cause: { type: "receipt_processing", receipt_hash: added.receipts_outcome[0].id },
        type: "access_key_update",
        change: { account_id: ALICE, public_key: ML_HANDLE, access_key: { nonce: view.nonce, permission: "FullAccess" } },
      },
    ]);
    // A single key is asked for by its full key, as nearcore's AccountWithPublicKey takes it.
    const single = await rpcResult(url, "EXPERIMENTAL_changes", {
      changes_type: "single_access_key_changes",
      block_id: receiptBlock,
      keys: [{ account_id: ALICE, public_key: ML_KEY }],
    });
    expect(single.changes.map((c: { change: { public_key: string } }) => c.change.public_key)).toEqual([ML_HANDLE]);
  });

  it("a transfer signed with the ML-DSA-65 key burns exactly 100 Ggas more at conversion than an ed25519 one", async () => {
    const deposit = 2n * NEAR;
    const [aliceBefore, bobBefore] = [await balance(ALICE), await balance(BOB)];
    const ed = await send(signedTx(service.chain, ALICE, BOB, transfer(deposit)));
    const aliceAfterEd = await balance(ALICE);
    const ml = await send(signedTx(service.chain, ALICE, BOB, transfer(deposit), { key: ML }));
    const aliceAfterMl = await balance(ALICE);

    expect(ml.status).toEqual({ SuccessValue: "" });
    expect(ml.transaction.public_key).toBe(ML_KEY);
    expect(ml.transaction.signature).toMatch(/^ml-dsa-65:[1-9A-HJ-NP-Za-km-z]{4480,4520}$/);
    expect(ed.transaction_outcome.outcome.gas_burnt).toBe(Number(TRANSFER_GAS));
    expect(ml.transaction_outcome.outcome.gas_burnt).toBe(Number(TRANSFER_GAS + VERIFICATION_GAS));
    expect(ml.transaction_outcome.outcome.tokens_burnt).toBe(((TRANSFER_GAS + VERIFICATION_GAS) * GAS_PRICE).toString());
    // The receipt is unaffected: its gas is the same as the ed25519 transfer's.
    expect(ml.receipts_outcome[0].outcome.gas_burnt).toBe(ed.receipts_outcome[0].outcome.gas_burnt);
    const edCost = aliceBefore - aliceAfterEd;
    expect(aliceAfterEd - aliceAfterMl).toBe(edCost + VERIFICATION_GAS * GAS_PRICE);
    expect(await balance(BOB)).toBe(bobBefore + 2n * deposit);
    expect((await viewKey(ML_KEY)).nonce).toBe(ml.transaction.nonce);
  });

  it("refuses a bad ML-DSA-65 signature and an ML-DSA-65 key the signer does not have, with nearcore's errors", async () => {
    const forged = signedTx(service.chain, ALICE, BOB, transfer(1n), {
      key: { publicKey: ML.publicKey, sign: (hash) => ML.sign(hash.map((b) => b ^ 1)) },
    });
    expect((await rpcError(url, "send_tx", { signed_tx_base64: b64(forged) })).error.data).toEqual({
      TxExecutionError: { InvalidTxError: "InvalidSignature" },
    });
    const tampered = signedTx(service.chain, ALICE, BOB, transfer(1n), { key: ML });
    tampered[tampered.length - 10]! ^= 0x40; // inside the 3,309 signature bytes
    expect((await rpcError(url, "send_tx", { signed_tx_base64: b64(tampered) })).error.data).toEqual({
      TxExecutionError: { InvalidTxError: "InvalidSignature" },
    });
    const stranger = mlDsa65FromSeed(new Uint8Array(32).fill(9));
    const unknown = signedTx(service.chain, ALICE, BOB, transfer(1n), { key: stranger, nonce: 1n });
    expect((await rpcError(url, "send_tx", { signed_tx_base64: b64(unknown) })).error.data).toEqual({
      TxExecutionError: {
        InvalidTxError: { InvalidAccessKeyError: { AccessKeyNotFound: { account_id: ALICE, public_key: formatPublicKey(stranger.publicKey) } } },
      },
    });
  });

  it("a delegate action signed with the ML-DSA-65 key runs, and the relayer pays its verification", async () => {
    const nonce = BigInt((await viewKey(ML_KEY)).nonce) + 1n;
    const head = await rpcResult(url, "block", { finality: "optimistic" });
    const delegate = signDelegateAction(
      { senderId: ALICE, receiverId: BOB, actions: transfer(NEAR), nonce, maxBlockHeight: BigInt(head.header.height + 100), publicKey: ML.publicKey },
      ML,
    );
    const bobBefore = await balance(BOB);
    const relayed = await send(signedTx(service.chain, CAROL, ALICE, [delegate]));
    expect(relayed.status).toEqual({ SuccessValue: "" });
    const f = NEARCORE_RUNTIME_PARAMETERS.fees;
    // Not-SIR send fees of the receipt, the Delegate action and its inner transfer, plus one
    // ML-DSA-65 verification for the inner signature (the relayer's own key is ed25519).
    const sendFees = f.actionReceiptCreation.sendNotSir + f.delegate.sendNotSir + f.transfer.sendNotSir;
    expect(relayed.transaction_outcome.outcome.gas_burnt).toBe(Number(sendFees + VERIFICATION_GAS));
    expect(await balance(BOB)).toBe(bobBefore + NEAR);
    expect((await viewKey(ML_KEY)).nonce).toBe(Number(nonce));
  });

  it("DeleteKey by the full key removes it and gives its storage back", async () => {
    const usageBefore = (await account(ALICE)).storage_usage;
    const deleted = await send(signedTx(service.chain, ALICE, ALICE, [{ type: "DeleteKey", publicKey: ML.publicKey }]));
    expect(deleted.status).toEqual({ SuccessValue: "" });
    expect(deleted.transaction.actions).toEqual([{ DeleteKey: { public_key: ML_KEY } }]);
    expect((await account(ALICE)).storage_usage).toBe(usageBefore - FULL_ACCESS_KEY_BYTES);
    expect((await viewKey(ML_KEY)).error).toBe(`access key ${ML_KEY} does not exist while viewing`);
    expect(await keyList()).not.toContain(ML_HANDLE);
    expect(await keyChanges(deleted.receipts_outcome[0].block_hash)).toEqual([
      {
        cause: { type: "receipt_processing", receipt_hash: deleted.receipts_outcome[0].id },
        type: "access_key_deletion",
        change: { account_id: ALICE, public_key: ML_HANDLE },
      },
    ]);
    // The ed25519 dev key still works.
    expect((await send(signedTx(service.chain, ALICE, BOB, transfer(1n), { key: devKeyPair(ALICE) }))).status).toEqual({ SuccessValue: "" });
  });

  it("EXPERIMENTAL_protocol_config reports ml_dsa_65_verification_cost", async () => {
    const config = await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "final" });
    expect(config.runtime_config.transaction_costs.ml_dsa_65_verification_cost).toBe(Number(VERIFICATION_GAS));
  });
});
