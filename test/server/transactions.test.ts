import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, GAS_PRICE, NEAR, ROOT, TRANSFER_GAS, keyOf, signedTx } from "../chain/runtime/helpers.js";
import { post, rpc, rpcError, rpcResult, startTestService } from "./harness.js";

// Transactions over real HTTP against the on-demand dev chain (--block-time 0): a request that
// waits for a status makes the chain produce the blocks it needs.
let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 1_500 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const transfer = (deposit: bigint) => [{ type: "Transfer" as const, deposit }];
const balance = async (accountId: string, finality = "optimistic") =>
  BigInt((await rpcResult(url, "query", { request_type: "view_account", finality, account_id: accountId })).amount);
const TRANSFER_TOKENS = TRANSFER_GAS * GAS_PRICE;

describe("send_tx", () => {
  it("transfers across shards: the receipt runs in a later block, balances change by deposit and gas exactly", async () => {
    const [aliceBefore, bobBefore] = [await balance(ALICE), await balance(BOB)];
    const deposit = 3n * NEAR;
    const signed = signedTx(service.chain, ALICE, BOB, transfer(deposit));
    const result = await rpcResult(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "FINAL" });
    expect(result.final_execution_status).toBe("FINAL");
    expect(result.status).toEqual({ SuccessValue: "" });
    expect(result.transaction).toMatchObject({ signer_id: ALICE, receiver_id: BOB, actions: [{ Transfer: { deposit: deposit.toString() } }] });
    expect(result.transaction_outcome.outcome).toMatchObject({
      gas_burnt: Number(TRANSFER_GAS),
      tokens_burnt: TRANSFER_TOKENS.toString(),
      executor_id: ALICE,
      status: { SuccessReceiptId: result.transaction_outcome.outcome.receipt_ids[0] },
    });
    const [receipt] = result.receipts_outcome;
    expect(receipt.outcome).toMatchObject({ executor_id: BOB, status: { SuccessValue: "" }, gas_burnt: Number(TRANSFER_GAS) });
    const txBlock = await rpcResult(url, "block", { block_id: result.transaction_outcome.block_hash });
    const receiptBlock = await rpcResult(url, "block", { block_id: receipt.block_hash });
    expect(receiptBlock.header.height).toBeGreaterThan(txBlock.header.height);
    expect(await balance(ALICE)).toBe(aliceBefore - deposit - 2n * TRANSFER_TOKENS);
    expect(await balance(BOB)).toBe(bobBefore + deposit);
  });

  it("answers NONE exactly and at once, then tx reports the later statuses", async () => {
    const signed = signedTx(service.chain, ROOT, "kv.test.near", transfer(1n));
    const reply = await rpc(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "NONE" });
    expect(reply.body.result).toEqual({ final_execution_status: "NONE" });
    const hash = await rpcResult(url, "broadcast_tx_async", [b64(signed)]); // idempotent: same hash
    for (const wait_until of ["INCLUDED", "EXECUTED_OPTIMISTIC", "INCLUDED_FINAL", "EXECUTED", "FINAL"]) {
      const status = await rpcResult(url, "tx", { tx_hash: hash, sender_account_id: ROOT, wait_until });
      expect(["INCLUDED", "EXECUTED_OPTIMISTIC", "INCLUDED_FINAL", "EXECUTED", "FINAL"]).toContain(status.final_execution_status);
      expect(status.transaction.hash).toBe(hash);
    }
    expect((await rpcResult(url, "tx", [hash, ROOT])).final_execution_status).toBe("FINAL");
  });

  it("is idempotent: resubmitting a known transaction returns its status", async () => {
    const signed = b64(signedTx(service.chain, ALICE, BOB, transfer(5n)));
    const first = await rpcResult(url, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
    const again = await rpcResult(url, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
    expect(again.transaction.hash).toBe(first.transaction.hash);
    expect(again.transaction_outcome).toEqual(first.transaction_outcome);
  });
});

describe("broadcast_tx_async / broadcast_tx_commit / EXPERIMENTAL_*", () => {
  it("broadcast_tx_async returns the base58 hash and the transaction lands", async () => {
    const signed = signedTx(service.chain, ALICE, BOB, transfer(7n));
    const hash = await rpcResult(url, "broadcast_tx_async", { signed_tx_base64: b64(signed) });
    expect(hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    const status = await rpcResult(url, "EXPERIMENTAL_tx_status", { tx_hash: hash, sender_account_id: ALICE, wait_until: "FINAL" });
    expect(status.receipts.map((r: { receipt_id: string }) => r.receipt_id)).toEqual(status.receipts_outcome.map((o: { id: string }) => o.id));
    const receipt = await rpcResult(url, "EXPERIMENTAL_receipt", { receipt_id: status.receipts[0].receipt_id });
    expect(receipt).toMatchObject({ predecessor_id: ALICE, receiver_id: BOB, receipt: { Action: { signer_id: ALICE } } });
  });

  it("broadcast_tx_commit takes the positional and the object form and waits for execution", async () => {
    for (const params of [(s: string) => [s], (s: string) => ({ signed_tx_base64: s })]) {
      const signed = b64(signedTx(service.chain, ALICE, BOB, transfer(1n)));
      const result = await rpcResult(url, "broadcast_tx_commit", params(signed));
      expect(["EXECUTED_OPTIMISTIC", "EXECUTED", "FINAL"]).toContain(result.final_execution_status);
      expect(result.status).toEqual({ SuccessValue: "" });
    }
  });

  it("EXPERIMENTAL_receipt_to_tx leads every receipt of a transaction to it and its signer, hints or not", async () => {
    const signed = signedTx(service.chain, ALICE, BOB, transfer(9n));
    const status = await rpcResult(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "FINAL" });
    const hash = status.transaction.hash;
    for (const { id } of status.receipts_outcome as { id: string }[]) {
      expect(await rpcResult(url, "EXPERIMENTAL_receipt_to_tx", { receipt_id: id })).toEqual({ transaction_hash: hash, sender_account_id: ALICE });
      const hinted = { receipt_id: id, block_height: 1, shard_id: 0, window: 5 };
      expect(await rpcResult(url, "EXPERIMENTAL_receipt_to_tx", hinted)).toEqual({ transaction_hash: hash, sender_account_id: ALICE });
    }
    const unknown = await rpcError(url, "EXPERIMENTAL_receipt_to_tx", { receipt_id: hash });
    expect(unknown.status).toBe(200);
    expect(unknown.error).toMatchObject({ name: "HANDLER_ERROR", cause: { name: "UNKNOWN_RECEIPT", info: { receipt_id: hash } }, code: -32000 });
    expect(unknown.error.data).toEqual({ name: "UNKNOWN_RECEIPT", info: { receipt_id: hash } });
    const bad = await rpcError(url, "EXPERIMENTAL_receipt_to_tx", { receipt_id: "nope" });
    expect(bad.error.cause.name).toBe("PARSE_ERROR");
  });

  it("EXPERIMENTAL_receipt answers UNKNOWN_RECEIPT with the cause as data", async () => {
    const id = "11111111111111111111111111111111";
    const { status, error } = await rpcError(url, "EXPERIMENTAL_receipt", { receipt_id: id });
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_RECEIPT", info: { receipt_id: id } },
      code: -32000,
      message: "Server error",
      data: { name: "UNKNOWN_RECEIPT", info: { receipt_id: id } },
    });
  });
});

describe("transaction errors", () => {
  it("answers an InvalidNonce with nearcore's INVALID_TRANSACTION shape", async () => {
    const key = devKeyPair(ALICE).publicKeyString;
    const akNonce = service.chain.at(service.chain.head()).accessKey(ALICE, key)!.nonce;
    const stale = signedTx(service.chain, ALICE, BOB, transfer(2n), { nonce: akNonce });
    const { status, error } = await rpcError(url, "send_tx", { signed_tx_base64: b64(stale) });
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "INVALID_TRANSACTION", info: {} },
      code: -32000,
      message: "Server error",
      data: { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: Number(akNonce), ak_nonce: Number(akNonce) } } } },
    });
  });

  it.each([
    ["a key the signer does not have", () => signedTx(service.chain, ALICE, BOB, transfer(1n), { key: keyOf("stranger") }), { InvalidAccessKeyError: { AccessKeyNotFound: { account_id: ALICE, public_key: keyOf("stranger").publicKeyString } } }],
    [
      "a signature by another key",
      () => signedTx(service.chain, ALICE, BOB, transfer(1n), { key: { publicKey: devKeyPair(ALICE).publicKey, sign: (hash: Uint8Array) => keyOf("stranger").sign(hash) } }),
      "InvalidSignature",
    ],
    ["an unknown signer", () => signedTx(service.chain, "ghost.test.near", BOB, transfer(1n), { key: keyOf("ghost"), nonce: 1n }), { SignerDoesNotExist: { signer_id: "ghost.test.near" } }],
    ["an expired block hash", () => signedTx(service.chain, ALICE, BOB, transfer(1n), { blockHash: new Uint8Array(32).fill(7) }), "Expired"],
  ])("answers %s with its InvalidTxError", async (_name, build, expected) => {
    const { error } = await rpcError(url, "send_tx", { signed_tx_base64: b64(build()) });
    expect(error.data).toEqual({ TxExecutionError: { InvalidTxError: expected } });
  });

  it("refuses a tampered copy of a known transaction (the hash does not cover the signature)", async () => {
    const signed = signedTx(service.chain, ALICE, BOB, transfer(4n));
    await rpcResult(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "FINAL" });
    const tampered = Uint8Array.from(signed);
    tampered[tampered.length - 1]! ^= 1;
    const { error } = await rpcError(url, "send_tx", { signed_tx_base64: b64(tampered) });
    expect(error.data).toEqual({ TxExecutionError: { InvalidTxError: "InvalidSignature" } });
  });

  it("answers a transaction over the size limit (multi-megabyte base64) with TransactionSizeExceeded, not a crash", async () => {
    const code = new Uint8Array(4_000_000).fill(7);
    const signed = signedTx(service.chain, ALICE, ALICE, [{ type: "DeployContract", code }]);
    const { status, error } = await rpcError(url, "send_tx", { signed_tx_base64: b64(signed) });
    expect(status).toBe(200);
    expect(error.data.TxExecutionError.InvalidTxError).toEqual({ TransactionSizeExceeded: { size: expect.any(Number), limit: 1_572_864 } });
  });

  it("tx with signed_tx_base64 validates but never submits", async () => {
    const signed = b64(signedTx(service.chain, ALICE, BOB, transfer(9n)));
    const { error } = await rpcError(url, "tx", { signed_tx_base64: signed, wait_until: "NONE" });
    expect(error.cause.name).toBe("UNKNOWN_TRANSACTION");
    expect(service.chain.transactionStatus(error.cause.info.requested_transaction_hash)).toBeUndefined();
    const stale = b64(signedTx(service.chain, ALICE, BOB, transfer(9n), { nonce: 1n }));
    expect((await rpcError(url, "tx", { signed_tx_base64: stale, wait_until: "NONE" })).error.cause.name).toBe("INVALID_TRANSACTION");
  });

  it("refuses garbage transaction bytes and bad base64 with PARSE_ERROR, and keeps serving", async () => {
    for (const [signed_tx_base64, message] of [
      ["AAAA", /^Failed to decode transaction: /],
      [b64(new Uint8Array(300).fill(1)), /^Failed to decode transaction: /],
      ["not base64!", /^Failed parsing args: /],
      ["YQ", /^Failed parsing args: invalid signed_tx_base64/],
    ] as const) {
      const { status, error } = await rpcError(url, "send_tx", { signed_tx_base64 });
      expect(status).toBe(400);
      expect(error.cause.name).toBe("PARSE_ERROR");
      expect(error.data).toMatch(message);
    }
    const async = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "broadcast_tx_async", params: ["AAAA"] }));
    expect(async.status).toBe(400);
    expect(await rpcResult(url, "health", null)).toBeNull();
  });

  it("answers UNKNOWN_TRANSACTION for NONE and TIMEOUT_ERROR (HTTP 408) when waiting for an unknown hash", async () => {
    const hash = "4".repeat(44);
    const none = await rpcError(url, "tx", { tx_hash: hash, sender_account_id: ALICE, wait_until: "NONE" });
    expect(none.error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_TRANSACTION", info: { requested_transaction_hash: hash } },
      code: -32000,
      message: "Server error",
      data: `Transaction ${hash} doesn't exist`,
    });
    const waited = await rpcError(url, "tx", { tx_hash: hash, sender_account_id: ALICE });
    expect(waited.status).toBe(408);
    expect(waited.error).toEqual({ name: "HANDLER_ERROR", cause: { name: "TIMEOUT_ERROR" }, code: -32000, message: "Server error", data: "Timeout" });
  });
});
