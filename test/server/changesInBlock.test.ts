import { NearRpcClient, blockEffects, enableValidation, experimentalChangesInBlock } from "@near-js/jsonrpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, keyOf, signedTx } from "../chain/runtime/helpers.js";
import { rpc, rpcResult, startTestService } from "./harness.js";

let service: Service;
let transferHeight: number;
let addKeyHeight: number;
let stagedHeight: number;
beforeAll(async () => {
  service = await startTestService({ retention: 4, chain: { blockTimeMs: 0 } });
  const chain = service.chain;
  chain.stop(); // blocks only as this test makes them (no finality blocks after the busy ones)
  chain.produceBlock(); // 1: nothing happens
  chain.submitTransaction(signedTx(chain, ALICE, BOB, [{ type: "Transfer", deposit: 5n }]));
  transferHeight = chain.produceBlock().height; // 2: alice pays and bumps her key's nonce
  chain.produceBlock(); // 3: bob receives
  chain.submitTransaction(signedTx(chain, ALICE, ALICE, [{ type: "AddKey", publicKey: keyOf("second").publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
  addKeyHeight = chain.produceBlock().height; // 4: a local receipt, runs in the same chunk
  chain.producer.stage([{ type: "data", accountId: "kv.test.near", key: new TextEncoder().encode("zz-new"), value: new TextEncoder().encode("1") }]);
  stagedHeight = chain.produceBlock().height; // 5: the staged write, and the add-key receipt's gas refund to alice
});
afterAll(() => service.close());

const changes = async (params: unknown, url = service.archivalUrl) => rpcResult(url, "block_effects", params);

describe("block_effects and EXPERIMENTAL_changes_in_block", () => {
  it("list the kinds of state each block changed, per account, in trie key order", async () => {
    const chain = service.chain;
    expect(await changes({ block_id: 1 })).toEqual({ block_hash: chain.blockByHeight(1)!.hash, changes: [] });
    expect(await changes({ block_id: transferHeight })).toEqual({
      block_hash: chain.blockByHeight(transferHeight)!.hash,
      changes: [
        { type: "account_touched", account_id: ALICE },
        { type: "access_key_touched", account_id: ALICE },
      ],
    });
    expect((await changes({ block_id: transferHeight + 1 })).changes).toEqual([{ type: "account_touched", account_id: BOB }]);
    // The signing key's nonce and the new key: two access keys, two entries, as nearcore lists them.
    expect((await changes({ block_id: chain.blockByHeight(addKeyHeight)!.hash })).changes).toEqual([
      { type: "account_touched", account_id: ALICE },
      { type: "access_key_touched", account_id: ALICE },
      { type: "access_key_touched", account_id: ALICE },
    ]);
    expect((await changes({ finality: "optimistic" })).changes).toEqual([
      { type: "account_touched", account_id: ALICE },
      { type: "data_touched", account_id: "kv.test.near" },
    ]);
    expect(await rpcResult(service.rpcUrl, "EXPERIMENTAL_changes_in_block", { block_id: stagedHeight })).toEqual(await changes({ block_id: stagedHeight }));
  });

  it("lists every genesis record for the genesis block", async () => {
    const genesis = await changes({ sync_checkpoint: "genesis" }, service.archivalUrl);
    const accounts = genesis.changes.filter((c: { type: string }) => c.type === "account_touched").map((c: { account_id: string }) => c.account_id);
    const devAccounts = service.chain.devAccounts.map((a) => a.accountId).sort();
    expect(accounts).toEqual(devAccounts);
    expect(accounts).toEqual(expect.arrayContaining(["alice.test.near", "ft.test.near", "kv.test.near", "test.near"]));
    // one full-access key per dev account
    expect(genesis.changes.filter((c: { type: string }) => c.type === "access_key_touched")).toHaveLength(devAccounts.length);
    expect(genesis.changes.filter((c: { type: string }) => c.type === "contract_code_touched").map((c: { account_id: string }) => c.account_id)).toEqual(
      ["ft.test.near", "kv.test.near", "nft.test.near", "pool.test.near", "relay.test.near"],
    );
    expect(genesis.changes.filter((c: { type: string }) => c.type === "data_touched").length).toBeGreaterThan(2000);
  });

  it("answers UNKNOWN_BLOCK, the cause itself as data, for an unknown block and on the regular listener outside the retention window", async () => {
    const chain = service.chain;
    expect(await changes({ block_id: transferHeight }, service.rpcUrl)).toMatchObject({ changes: [{ type: "account_touched" }, { type: "access_key_touched" }] });
    for (let i = 0; i < 4; i++) chain.produceBlock();
    const unknownBlock = { name: "HANDLER_ERROR", cause: { name: "UNKNOWN_BLOCK", info: {} }, code: -32000, message: "Server error", data: { name: "UNKNOWN_BLOCK", info: {} } };
    // nearcore looks the block up first: a regular node has garbage-collected it
    const collected = await rpc(service.rpcUrl, "block_effects", { block_id: transferHeight });
    expect([collected.status, collected.body.error]).toEqual([200, unknownBlock]);
    expect((await changes({ block_id: transferHeight })).changes).toHaveLength(2);
    const reply = await rpc(service.rpcUrl, "block_effects", { block_id: 999 });
    expect([reply.status, reply.body.error]).toEqual([200, unknownBlock]);
    const bad = await rpc(service.rpcUrl, "EXPERIMENTAL_changes_in_block", { block_id: 1, finality: "final" });
    expect([bad.status, bad.body.error.cause.name]).toEqual([400, "PARSE_ERROR"]);
  });

  it("@near-js/jsonrpc-client accepts both answers", async () => {
    enableValidation();
    const client = new NearRpcClient({ endpoint: service.archivalUrl, retries: 0 });
    expect((await blockEffects(client, { blockId: addKeyHeight })).changes).toHaveLength(3);
    expect((await experimentalChangesInBlock(client, { blockId: transferHeight })).changes[0]?.accountId).toBe(ALICE);
  });
});
