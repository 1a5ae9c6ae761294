// @shardkit/client/jsonrpc's builders for the newer actions against a real shardkit service over
// HTTP: a global contract published by code hash and used by another account, a NEP-616
// deterministic account created from a state init, a meta transaction signed by one account and
// relayed by another, and a gas key funded and drained.

import { readFileSync } from "node:fs";
import { sha256 } from "../../src/chain/primitives/sha256.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { globalContractCodeKey } from "../../src/chain/runtime/runtimeTrieKeys.js";
import type { GlobalContractIdentifier } from "@shardkit/primitives/action";
import type { Service } from "../../src/server/startService.js";
import {
  actions,
  jsonRpcClient,
  keyPairFromString,
  randomEd25519KeyPair,
  transactionSender,
  type RpcClient,
  type TransactionSender,
} from "../../packages/client/src/jsonrpc/index.js";
import { startTestService } from "../server/harness.js";

const NEAR = 10n ** 24n;
const KV = readFileSync(new URL("../../contracts/build/kv.wasm", import.meta.url));

let service: Service;
let rpc: RpcClient;
const sender = (accountId: string): TransactionSender =>
  transactionSender({ rpc, signerId: accountId, signer: keyPairFromString(devKeyPair(accountId).secretKeyString) });

beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 50 } });
  rpc = jsonRpcClient({ url: service.rpcUrl });
  while ((await rpc.block({ finality: "final" })).header.height < 3) await new Promise((r) => setTimeout(r, 50));
});
afterAll(() => service.close());

const kvGet = async (accountId: string, key: string): Promise<unknown> => {
  const result = await rpc.query({
    request_type: "call_function",
    finality: "optimistic",
    account_id: accountId,
    method_name: "get",
    args_base64: Buffer.from(JSON.stringify({ key })).toString("base64"),
  });
  if ("error" in result) throw new Error(result.error);
  return JSON.parse(Buffer.from(result.result).toString());
};

/** Resolves once a global contract's code has reached every shard (its distribution receipts take a few blocks after the deploy). */
async function distributed(id: GlobalContractIdentifier): Promise<void> {
  const { chain } = service;
  const key = globalContractCodeKey(id);
  const everywhere = () => chain.shardLayout.shardIds.every((s) => chain.at(chain.head()).shard(s).get(key) !== undefined);
  while (!everywhere()) {
    await new Promise<void>((resolve) => {
      const stop = chain.onBlock(() => {
        stop();
        resolve();
      });
    });
  }
}

const balance = async (accountId: string) =>
  BigInt((await rpc.query({ request_type: "view_account", finality: "optimistic", account_id: accountId })).amount);

describe("the client's action builders over HTTP", () => {
  it("publishes a global contract by code hash, uses it from another account and calls into it", async () => {
    const published = await sender("alice.test.near").sendAndWait("alice.test.near", [actions.deployGlobalContract(KV)]);
    expect(published.status).toHaveProperty("SuccessValue");
    const codeHash = base58Encode(sha256(KV));
    await distributed({ kind: "CodeHash", codeHash: sha256(KV) });
    const code = await rpc.query({ request_type: "view_global_contract_code", finality: "optimistic", code_hash: codeHash });
    expect(code.hash).toBe(codeHash);

    const bob = sender("bob.test.near");
    const used = await bob.sendAndWait("bob.test.near", [actions.useGlobalContract({ codeHash })]);
    expect(used.status, JSON.stringify(used.status)).toHaveProperty("SuccessValue");
    const account = await rpc.query({ request_type: "view_account", finality: "optimistic", account_id: "bob.test.near" });
    expect(account.global_contract_hash).toBe(codeHash);
    await bob.sendAndWait("bob.test.near", [actions.functionCall("set", { key: "colour", value: "teal" })]);
    expect(await kvGet("bob.test.near", "colour")).toBe("teal");
  });

  it("creates the deterministic account of a state init, with its data readable by its contract", async () => {
    const init = actions.stateInit({ accountId: "carol.test.near" }, [
      ["greeting", "hello"],
      ["answer", "42"],
    ]);
    // Keys are sorted as the borsh BTreeMap nearcore hashes ("answer" < "greeting").
    expect(init.data.map(([k]) => Buffer.from(k).toString())).toEqual(["answer", "greeting"]);
    const accountId = actions.deterministicAccountId(init);
    expect(accountId).toMatch(/^0s[0-9a-f]{40}$/);

    const carol = sender("carol.test.near");
    await carol.sendAndWait("carol.test.near", [actions.deployGlobalContract(KV, "AccountId")]);
    await distributed({ kind: "AccountId", accountId: "carol.test.near" });
    const outcome = await carol.sendAndWait(accountId, [actions.deterministicStateInit(init, NEAR)]);
    expect(outcome.status).toHaveProperty("SuccessValue");
    const account = await rpc.query({ request_type: "view_account", finality: "optimistic", account_id: accountId });
    expect(account.global_contract_account_id).toBe("carol.test.near");
    expect(await kvGet(accountId, "greeting")).toBe("hello");
    expect(await kvGet(accountId, "answer")).toBe("42");
  });

  it("signs a meta transaction that another account relays and pays for", async () => {
    const dave = sender("test.near");
    const relayer = sender("alice.test.near");
    const before = { bob: await balance("bob.test.near"), dave: await balance("test.near"), relayer: await balance("alice.test.near") };
    const delegate = await dave.signDelegate("bob.test.near", [actions.transfer(3n * NEAR)]);
    expect(delegate.delegateAction).toMatchObject({ senderId: "test.near", receiverId: "bob.test.near" });
    const outcome = await relayer.sendAndWait("test.near", [delegate], { waitUntil: "FINAL" });
    expect(outcome.status).toHaveProperty("SuccessValue");
    expect(outcome.receipts_outcome.map((r) => r.outcome.status).filter((status) => typeof status === "object" && "Failure" in status)).toEqual([]);
    expect(await balance("bob.test.near")).toBe(before.bob + 3n * NEAR);
    // The relayer paid for everything, the inner transfer's deposit included (NEP-366).
    expect(await balance("test.near")).toBe(before.dave);
    expect(await balance("alice.test.near")).toBeLessThan(before.relayer - 3n * NEAR);
    // The delegate used the sender's key nonce: its next transaction still goes through.
    const next = await dave.sendAndWait("bob.test.near", [actions.transfer(1n)]);
    expect(next.status).toHaveProperty("SuccessValue");
  });

  it("adds a gas key, funds it and withdraws from it", async () => {
    const gasKey = randomEd25519KeyPair();
    const owner = sender("carol.test.near");
    await owner.sendAndWait("carol.test.near", [actions.addGasKey(gasKey.publicKey, 4)]);
    await owner.sendAndWait("carol.test.near", [actions.transferToGasKey(gasKey.publicKey, 2n * NEAR)]);
    const view = async () =>
      rpc.query({ request_type: "view_access_key", finality: "optimistic", account_id: "carol.test.near", public_key: gasKey.publicKeyString });
    expect(await view()).toMatchObject({ permission: { GasKeyFullAccess: { balance: (2n * NEAR).toString(), num_nonces: 4 } } });
    await owner.sendAndWait("carol.test.near", [actions.withdrawFromGasKey(gasKey.publicKey, NEAR)]);
    expect(await view()).toMatchObject({ permission: { GasKeyFullAccess: { balance: NEAR.toString(), num_nonces: 4 } } });
  });
});
