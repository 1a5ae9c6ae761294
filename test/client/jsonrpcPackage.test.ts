// @shardkit/client/jsonrpc against a real shardkit service over HTTP (blocks every 50 ms):
// narrowing at run time, an error class per cause, the view_state pager, and signed transfers
// (ed25519 and secp256k1) with nonce/block-hash handling and sendAndWait.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kvFixtureEntries } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import {
  InvalidTransactionError,
  RpcResponseError,
  UnknownAccountError,
  UnknownBlockError,
  actions,
  isMethodError,
  isRpcError,
  jsonRpcClient,
  keyPairFromString,
  secp256k1KeyPair,
  signTransaction,
  transactionSender,
  viewStatePages,
  type RpcClient,
} from "../../packages/client/src/jsonrpc/index.js";
import { startTestService } from "../server/harness.js";

const NEAR = 10n ** 24n;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const kvSorted = kvFixtureEntries()
  .sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)))
  .map(({ key, value }) => ({ key: b64(key), value: b64(value) }));

let service: Service;
let rpc: RpcClient;

beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 50 } });
  rpc = jsonRpcClient({ url: service.rpcUrl });
  while ((await rpc.block({ finality: "final" })).header.height < 3) await new Promise((r) => setTimeout(r, 50));
});
afterAll(() => service.close());

const balance = async (accountId: string) =>
  BigInt((await rpc.query({ request_type: "view_account", finality: "optimistic", account_id: accountId })).amount);

describe("@shardkit/client/jsonrpc over HTTP", () => {
  it("answers query with the variant its request_type names", async () => {
    const account = await rpc.query({ request_type: "view_account", finality: "final", account_id: "alice.test.near" });
    expect(BigInt(account.amount)).toBeGreaterThan(0n);
    const code = await rpc.query({ request_type: "view_code", finality: "final", account_id: "kv.test.near" });
    expect(code.code_base64.length).toBeGreaterThan(100);
    const keys = await rpc.query({ request_type: "view_access_key_list", finality: "final", account_id: "alice.test.near" });
    expect(keys.keys.map((k) => k.public_key)).toContain(devKeyPair("alice.test.near").publicKeyString);
  });

  it("throws the cause's own error class, with its typed info", async () => {
    const failure = await rpc.query({ request_type: "view_account", finality: "final", account_id: "nobody.test.near" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UnknownAccountError);
    expect(failure).toBeInstanceOf(RpcResponseError);
    if (!(failure instanceof UnknownAccountError)) throw failure;
    expect(failure.causeName).toBe("UNKNOWN_ACCOUNT");
    expect(failure.name).toBe("UnknownAccountError");
    expect(failure.info.requested_account_id).toBe("nobody.test.near");
    expect(isMethodError(failure, "query")).toBe(true);
    expect(isRpcError(failure, "UNKNOWN_BLOCK")).toBe(false);
    const noBlock = await rpc.block({ block_id: 10_000_000 }).catch((e: unknown) => e);
    expect(noBlock).toBeInstanceOf(UnknownBlockError);
    expect(isRpcError(noBlock, "UNKNOWN_BLOCK") && noBlock.httpStatus).toBe(200);
  });

  it("pages through view_state: the pages concatenate to the whole state, in raw byte order, at one block", async () => {
    const pages = [];
    for await (const page of viewStatePages(rpc, { finality: "final", account_id: "kv.test.near", prefix_base64: "", limit: 300 })) {
      pages.push(page);
    }
    expect(pages).toHaveLength(Math.ceil(kvSorted.length / 300));
    expect(pages.flatMap((p) => p.values)).toEqual(kvSorted);
    expect(new Set(pages.map((p) => p.block_hash)).size).toBe(1);
    expect(pages.at(-1)!.last_key).toBeUndefined();
    // Resuming from a saved cursor gives the rest.
    const rest = [];
    for await (const page of viewStatePages(rpc, { block_id: pages[0]!.block_hash, account_id: "kv.test.near", prefix_base64: "", after_key_base64: pages[0]!.last_key! })) {
      rest.push(...page.values);
    }
    expect(rest).toEqual(kvSorted.slice(300));
  });

  it("signs and sends transfers with sendAndWait, nonces kept across concurrent sends", async () => {
    const alice = transactionSender({ rpc, signerId: "alice.test.near", signer: keyPairFromString(devKeyPair("alice.test.near").secretKeyString) });
    const before = await balance("bob.test.near");
    const outcomes = await Promise.all([1n, 2n, 3n].map((n) => alice.sendAndWait("bob.test.near", [actions.transfer(n * NEAR)])));
    for (const outcome of outcomes) expect(outcome).toMatchObject({ final_execution_status: "EXECUTED_OPTIMISTIC", status: { SuccessValue: "" } });
    expect(new Set(outcomes.map((o) => ("transaction" in o ? o.transaction.nonce : 0))).size).toBe(3);
    expect((await balance("bob.test.near")) - before).toBe(6n * NEAR);
  });

  it("recovers from a stale nonce: another client used the key meanwhile", async () => {
    const secret = devKeyPair("carol.test.near").secretKeyString;
    const first = transactionSender({ rpc, signerId: "carol.test.near", signer: keyPairFromString(secret) });
    const second = transactionSender({ rpc, signerId: "carol.test.near", signer: keyPairFromString(secret) });
    await first.sendAndWait("bob.test.near", [actions.transfer(1n)]);
    await second.sendAndWait("bob.test.near", [actions.transfer(1n)]);
    // `first` still believes its last nonce is current: the node answers InvalidNonce and it re-signs.
    const outcome = await first.sendAndWait("bob.test.near", [actions.transfer(1n)], { waitUntil: "FINAL" });
    expect(outcome).toMatchObject({ final_execution_status: "FINAL", status: { SuccessValue: "" } });
  });

  it("adds a secp256k1 key and sends with it (the node verifies the @noble/curves signature)", async () => {
    const secp = secp256k1KeyPair(new Uint8Array(32).fill(7));
    const owner = transactionSender({ rpc, signerId: "test.near", signer: keyPairFromString(devKeyPair("test.near").secretKeyString) });
    await owner.sendAndWait("test.near", [actions.addFullAccessKey(secp.publicKeyString)]);
    const withSecp = transactionSender({ rpc, signerId: "test.near", signer: keyPairFromString(secp.secretKeyString) });
    const before = await balance("bob.test.near");
    const outcome = await withSecp.sendAndWait("bob.test.near", [actions.transfer(5n)]);
    expect(outcome).toMatchObject({ status: { SuccessValue: "" } });
    expect("transaction" in outcome && outcome.transaction.public_key).toBe(secp.publicKeyString);
    expect((await balance("bob.test.near")) - before).toBe(5n);
  });

  it("reports a rejected transaction as InvalidTransactionError with the structured reason", async () => {
    const signed = await signTransaction(
      { signerId: "alice.test.near", receiverId: "bob.test.near", nonce: 1n, blockHash: new Uint8Array(32), actions: [actions.transfer(1n)] },
      keyPairFromString(devKeyPair("alice.test.near").secretKeyString),
    );
    const failure = await rpc.sendTx({ signed_tx_base64: signed.signedTxBase64, wait_until: "INCLUDED" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(InvalidTransactionError);
    if (!(failure instanceof InvalidTransactionError)) throw failure;
    expect(failure.data.TxExecutionError.InvalidTxError).toBeDefined();
  });
});
