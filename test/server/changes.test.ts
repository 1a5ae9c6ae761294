import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NearRpcClient, enableValidation, experimentalChanges } from "@near-js/jsonrpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../src/chain/primitives/sha256.js";
import { base58Encode } from "@shardkit/primitives/base58";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, TRANSFER_GAS, keyOf, priceSurplus, signedTx } from "../chain/runtime/helpers.js";
import { rpc, rpcResult, startTestService } from "./harness.js";

const KV_WASM = readFileSync(new URL("../../contracts/build/kv.wasm", import.meta.url));
const b64 = (s: string | Uint8Array): string => Buffer.from(s).toString("base64");
const ALICE_KEY = formatPublicKey(devKeyPair(ALICE).publicKey);
const SECOND_KEY = formatPublicKey(keyOf("changes-second").publicKey);
const GONE = "gone.alice.test.near";
const GONE_KEY = formatPublicKey(keyOf("changes-gone").publicKey);

let service: Service;
/** Heights and hashes of the scenario's blocks. */
const at: Record<string, { height: number; tx: string }> = {};

/** Submits one transaction, produces the block that includes it and returns its height and hash. */
function include(name: string, signer: string, receiver: string, actions: Parameters<typeof signedTx>[3]): void {
  const { hash } = service.chain.submitTransaction(signedTx(service.chain, signer, receiver, actions));
  at[name] = { height: service.chain.produceBlock().height, tx: hash };
}

/** The id of the n-th receipt of an included transaction (its outcome's receipt ids, in order). */
function receiptOf(name: string, n = 0): string {
  const status = service.chain.transactionStatus(at[name]!.tx)!;
  return status.outcome!.receipts_outcome[n]!.id;
}

/** `view_account` of `id` after block `height`, as the change view shows it. */
function accountAt(id: string, height: number) {
  const a = service.chain.at(service.chain.blockByHeight(height)!).account(id)!;
  return { account_id: id, amount: a.amount.toString(), locked: a.locked.toString(), code_hash: a.codeHash, storage_usage: a.storageUsage, storage_paid_at: 0 };
}

const changes = (params: object, url = service.rpcUrl) => rpcResult(url, "changes", params);

beforeAll(async () => {
  service = await startTestService({ retention: 30, chain: { blockTimeMs: 0 } });
  const chain = service.chain;
  chain.produceBlock();
  include("transfer", ALICE, BOB, [{ type: "Transfer", deposit: 7n }]);
  at["credit"] = { height: chain.produceBlock().height, tx: "" };
  include("addKey", ALICE, ALICE, [{ type: "AddKey", publicKey: keyOf("changes-second").publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]);
  include("deleteKey", ALICE, ALICE, [{ type: "DeleteKey", publicKey: keyOf("changes-second").publicKey }]);
  include("deploy", ALICE, ALICE, [{ type: "DeployContract", code: KV_WASM }]);
  const set = (key: string, value: string) => ({
    type: "FunctionCall" as const,
    methodName: "set",
    args: Buffer.from(JSON.stringify({ key, value })),
    gas: 30_000_000_000_000n,
    deposit: 0n,
  });
  include("set", ALICE, ALICE, [set("zz-a", "1"), set("zz-b", "2"), set("yy", "3")]);
  include("remove", ALICE, ALICE, [{ ...set("zz-a", ""), methodName: "remove", args: Buffer.from(JSON.stringify({ key: "zz-a" })) }]);
  // An account with a key, code and data, then deleted: every *_deletion type.
  const goneKey = keyOf("changes-gone");
  include("create", ALICE, GONE, [
    { type: "CreateAccount" },
    { type: "Transfer", deposit: 10n ** 25n },
    { type: "AddKey", publicKey: goneKey.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } },
    { type: "DeployContract", code: KV_WASM },
  ]);
  chain.produceBlock(); // the receipt runs on GONE's shard
  const { hash: goneSet } = chain.submitTransaction(signedTx(chain, GONE, GONE, [set("k", "v")], { key: goneKey }));
  at["goneSet"] = { height: chain.produceBlock().height, tx: goneSet };
  const { hash: goneDelete } = chain.submitTransaction(signedTx(chain, GONE, GONE, [{ type: "DeleteAccount", beneficiaryId: ALICE }], { key: goneKey }));
  at["deleteAccount"] = { height: chain.produceBlock().height, tx: goneDelete };
  for (let i = 0; i < 3; i++) chain.produceBlock(); // refunds settle
});
afterAll(() => service.close());

describe("changes / EXPERIMENTAL_changes", () => {
  it("account_changes: a transfer charges the signer (transaction) and credits the receiver (receipt) a block later", async () => {
    const { height, tx } = at["transfer"]!;
    const block = service.chain.blockByHeight(height)!;
    expect(await changes({ changes_type: "account_changes", block_id: height, account_ids: [ALICE, BOB] })).toEqual({
      block_hash: block.hash,
      changes: [{ cause: { type: "transaction_processing", tx_hash: tx }, type: "account_update", change: accountAt(ALICE, height) }],
    });
    const credit = at["credit"]!.height;
    expect(await changes({ changes_type: "account_changes", block_id: credit, account_ids: [BOB, ALICE] })).toEqual({
      block_hash: service.chain.blockByHeight(credit)!.hash,
      changes: [{ cause: { type: "receipt_processing", receipt_hash: receiptOf("transfer") }, type: "account_update", change: accountAt(BOB, credit) }],
    });
    // bob got exactly the deposit
    expect(BigInt(accountAt(BOB, credit).amount) - BigInt(accountAt(BOB, height).amount)).toBe(7n);
    // the old name answers the same
    expect(await rpcResult(service.rpcUrl, "EXPERIMENTAL_changes", { changes_type: "account_changes", block_id: credit, account_ids: [BOB] })).toEqual(
      await changes({ changes_type: "account_changes", block_id: credit, account_ids: [BOB] }),
    );
  });

  it("lists several changes of one key in the order the runtime made them, each with its cause", async () => {
    const { height, tx } = at["addKey"]!;
    const receipt = receiptOf("addKey");
    const before = accountAt(ALICE, height - 1);
    const after = accountAt(ALICE, height);
    const result = await changes({ changes_type: "account_changes", block_id: height, account_ids: [ALICE] });
    // The transaction pays (storage unchanged), then its local receipt adds the key (storage
    // grows), then the gas refund of the earlier transfer (NEP-642's price surplus) arrives.
    const refund = priceSurplus(TRANSFER_GAS);
    const beforeRefund = { ...after, amount: (BigInt(after.amount) - refund).toString() };
    expect(result.changes).toEqual([
      { cause: { type: "transaction_processing", tx_hash: tx }, type: "account_update", change: { ...beforeRefund, storage_usage: before.storage_usage } },
      { cause: { type: "receipt_processing", receipt_hash: receipt }, type: "account_update", change: beforeRefund },
      { cause: { type: "receipt_processing", receipt_hash: receiptOf("transfer", 1) }, type: "account_update", change: after },
    ]);
    expect(after.storage_usage).toBeGreaterThan(before.storage_usage);
  });

  it("single_access_key_changes and all_access_key_changes: nonce bump, key added, key deleted", async () => {
    const add = at["addKey"]!;
    const nonceAfter = (h: number) => Number(service.chain.at(service.chain.blockByHeight(h)!).accessKey(ALICE, ALICE_KEY)!.nonce);
    const nonceChange = (name: string) => ({
      cause: { type: "transaction_processing", tx_hash: at[name]!.tx },
      type: "access_key_update",
      change: { account_id: ALICE, public_key: ALICE_KEY, access_key: { nonce: nonceAfter(at[name]!.height), permission: "FullAccess" } },
    });
    const added = {
      cause: { type: "receipt_processing", receipt_hash: receiptOf("addKey") },
      type: "access_key_update",
      // an added key's nonce starts at (height - 1) * 10^6, whatever the action says (nearcore)
      change: { account_id: ALICE, public_key: SECOND_KEY, access_key: { nonce: (add.height - 1) * 1_000_000, permission: "FullAccess" } },
    };
    expect((await changes({ changes_type: "single_access_key_changes", block_id: add.height, keys: [{ account_id: ALICE, public_key: SECOND_KEY }] })).changes).toEqual([added]);
    // all keys of alice, in key byte order: the two keys' borsh bytes decide which comes first
    const all = (await changes({ changes_type: "all_access_key_changes", block_id: add.height, account_ids: [ALICE] })).changes;
    expect(all).toHaveLength(2);
    expect(all).toEqual(expect.arrayContaining([nonceChange("addKey"), added]));
    // asked in this order, answered in this order
    expect(
      (
        await changes({
          changes_type: "single_access_key_changes",
          block_id: add.height,
          keys: [
            { account_id: ALICE, public_key: SECOND_KEY },
            { account_id: ALICE, public_key: ALICE_KEY },
          ],
        })
      ).changes,
    ).toEqual([added, nonceChange("addKey")]);
    const del = at["deleteKey"]!;
    expect((await changes({ changes_type: "all_access_key_changes", block_id: del.height, account_ids: [ALICE] })).changes).toEqual(
      expect.arrayContaining([
        nonceChange("deleteKey"),
        { cause: { type: "receipt_processing", receipt_hash: receiptOf("deleteKey") }, type: "access_key_deletion", change: { account_id: ALICE, public_key: SECOND_KEY } },
      ]),
    );
    expect((await changes({ changes_type: "single_access_key_changes", block_id: del.height, keys: [{ account_id: BOB, public_key: ALICE_KEY }] })).changes).toEqual([]);
  });

  it("contract_code_changes: the deployed code in base64, caused by the deploy receipt", async () => {
    const { height } = at["deploy"]!;
    expect((await changes({ changes_type: "contract_code_changes", block_id: height, account_ids: [ALICE] })).changes).toEqual([
      { cause: { type: "receipt_processing", receipt_hash: receiptOf("deploy") }, type: "contract_code_update", change: { account_id: ALICE, code_base64: KV_WASM.toString("base64") } },
    ]);
    expect(accountAt(ALICE, height).code_hash).toBe(base58Encode(sha256(KV_WASM)));
    expect((await changes({ changes_type: "contract_code_changes", block_id: height - 1, account_ids: [ALICE] })).changes).toEqual([]);
  });

  it("data_changes: every write of the call, filtered by key prefix, plus the gas reward on the account", async () => {
    const { height } = at["set"]!;
    const receipt = receiptOf("set");
    const data = (key: string, value: string) => ({
      cause: { type: "receipt_processing", receipt_hash: receipt },
      type: "data_update",
      change: { account_id: ALICE, key_base64: b64(key), value_base64: b64(value) },
    });
    expect((await changes({ changes_type: "data_changes", block_id: height, account_ids: [ALICE], key_prefix_base64: b64("zz") })).changes).toEqual([
      data("zz-a", "1"),
      data("zz-b", "2"),
    ]);
    expect((await changes({ changes_type: "data_changes", block_id: height, account_ids: [ALICE], key_prefix_base64: b64("zz-b") })).changes).toEqual([data("zz-b", "2")]);
    expect((await changes({ changes_type: "data_changes", block_id: height, account_ids: [ALICE], key_prefix_base64: b64("x") })).changes).toEqual([]);
    // The whole storage in raw byte order: the kv index buckets ("\0" ‖ first byte) first. The
    // bucket of "zz-a" and "zz-b" is written by two actions of one receipt: one commit, one change.
    const everything = (await changes({ changes_type: "data_changes", block_id: height, account_ids: [ALICE], key_prefix_base64: "" })).changes;
    expect(everything.map((c: { change: { key_base64: string } }) => Buffer.from(c.change.key_base64, "base64").toString("latin1"))).toEqual([
      "\0y",
      "\0z",
      "yy",
      "zz-a",
      "zz-b",
    ]);
    expect(everything.every((c: { cause: { receipt_hash: string } }) => c.cause.receipt_hash === receipt)).toBe(true);
    const account = (await changes({ changes_type: "account_changes", block_id: height, account_ids: [ALICE] })).changes;
    // ..., then the deploy's gas refund arrives (an incoming receipt runs after the local one).
    expect(account.map((c: { cause: { type: string } }) => c.cause.type)).toEqual(["transaction_processing", "receipt_processing", "action_receipt_gas_reward", "receipt_processing"]);
    expect(account[2]).toMatchObject({ cause: { type: "action_receipt_gas_reward", receipt_hash: receipt }, type: "account_update" });
    expect(BigInt(account[2].change.amount)).toBeGreaterThan(BigInt(account[1].change.amount));
    expect(account[3]).toEqual({ cause: { type: "receipt_processing", receipt_hash: receiptOf("deploy", 1) }, type: "account_update", change: accountAt(ALICE, height) });
  });

  it("lists the genesis records with cause initial_state", async () => {
    const kvData = (await changes({ changes_type: "data_changes", sync_checkpoint: "genesis", account_ids: ["kv.test.near"], key_prefix_base64: "" }, service.archivalUrl)).changes;
    const entries = service.chain.at(service.chain.genesisBlock).contractState("kv.test.near", { prefix: new Uint8Array(0) }).values;
    expect(kvData).toEqual(
      entries.map((e) => ({
        cause: { type: "initial_state" },
        type: "data_update",
        change: { account_id: "kv.test.near", key_base64: b64(e.key), value_base64: b64(e.value) },
      })),
    );
    const genesis = service.chain.genesisBlock.height;
    expect(entries.length).toBeGreaterThan(100);
    expect(await changes({ changes_type: "account_changes", block_id: genesis, account_ids: [ALICE] }, service.archivalUrl)).toEqual({
      block_hash: service.chain.genesisBlock.hash,
      changes: [{ cause: { type: "initial_state" }, type: "account_update", change: accountAt(ALICE, genesis) }],
    });
  });

  it("lists deletions: a removed storage entry, and a deleted account's record, key, code and data", async () => {
    const removed = at["remove"]!;
    expect((await changes({ changes_type: "data_changes", block_id: removed.height, account_ids: [ALICE], key_prefix_base64: b64("zz") })).changes).toEqual([
      { cause: { type: "receipt_processing", receipt_hash: receiptOf("remove") }, type: "data_deletion", change: { account_id: ALICE, key_base64: b64("zz-a") } },
    ]);
    const { height, tx } = at["deleteAccount"]!;
    const receipt = receiptOf("deleteAccount");
    const deleted = { type: "receipt_processing", receipt_hash: receipt };
    const nonce = Number(service.chain.at(service.chain.blockByHeight(height - 1)!).accessKey(GONE, GONE_KEY)!.nonce) + 1;
    const accountChanges = (await changes({ changes_type: "account_changes", block_id: height, account_ids: [GONE] })).changes;
    expect(accountChanges).toHaveLength(2);
    expect(accountChanges[0]).toMatchObject({ cause: { type: "transaction_processing", tx_hash: tx }, type: "account_update", change: { account_id: GONE } });
    expect(accountChanges[1]).toEqual({ cause: deleted, type: "account_deletion", change: { account_id: GONE } });
    expect((await changes({ changes_type: "all_access_key_changes", block_id: height, account_ids: [GONE] })).changes).toEqual([
      { cause: { type: "transaction_processing", tx_hash: tx }, type: "access_key_update", change: { account_id: GONE, public_key: GONE_KEY, access_key: { nonce, permission: "FullAccess" } } },
      { cause: deleted, type: "access_key_deletion", change: { account_id: GONE, public_key: GONE_KEY } },
    ]);
    expect((await changes({ changes_type: "contract_code_changes", block_id: height, account_ids: [GONE] })).changes).toEqual([
      { cause: deleted, type: "contract_code_deletion", change: { account_id: GONE } },
    ]);
    expect((await changes({ changes_type: "data_changes", block_id: height, account_ids: [GONE], key_prefix_base64: "" })).changes).toEqual([
      { cause: deleted, type: "data_deletion", change: { account_id: GONE, key_base64: b64("\0k") } },
      { cause: deleted, type: "data_deletion", change: { account_id: GONE, key_base64: b64("k") } },
    ]);
    expect(service.chain.at(service.chain.blockByHeight(height)!).account(GONE)).toBeUndefined();
  });

  it("answers UNKNOWN_BLOCK with the serialised cause for an unknown block and a garbage-collected one, and PARSE_ERROR for bad params", async () => {
    const unknown = await rpc(service.rpcUrl, "changes", { changes_type: "account_changes", block_id: 99_999, account_ids: [ALICE] });
    expect([unknown.status, unknown.body.error]).toEqual([
      200,
      { name: "HANDLER_ERROR", cause: { name: "UNKNOWN_BLOCK", info: {} }, code: -32000, message: "Server error", data: { name: "UNKNOWN_BLOCK", info: {} } },
    ]);
    const bad = [
      { changes_type: "account_changes", block_id: 1 },
      { changes_type: "data_changes", block_id: 1, account_ids: [ALICE] },
      { changes_type: "account_changes", block_id: 1, finality: "final", account_ids: [ALICE] },
      { changes_type: "account_changes", block_id: 1, account_ids: ["Alice"] },
      { changes_type: "single_access_key_changes", block_id: 1, keys: [{ account_id: ALICE, public_key: "ed25519:abc" }] },
      { changes_type: "data_changes", block_id: 1, account_ids: [ALICE], key_prefix_base64: "a" },
      { changes_type: "storage_changes", block_id: 1, account_ids: [ALICE] },
    ];
    for (const params of bad) {
      const reply = await rpc(service.rpcUrl, "changes", params);
      expect([reply.status, reply.body.error?.cause?.name], JSON.stringify(params)).toEqual([400, "PARSE_ERROR"]);
    }
    expect((await changes({ changes_type: "all_gas_key_changes", finality: "final", account_ids: [ALICE] })).changes).toEqual([]);
  });

  it("@near-js/jsonrpc-client's validation accepts the answers", async () => {
    enableValidation();
    const client = new NearRpcClient({ endpoint: service.archivalUrl, retries: 0 });
    const result = await experimentalChanges(client, { changesType: "account_changes", blockId: at["set"]!.height, accountIds: [ALICE] } as never);
    expect(result.changes).toHaveLength(4);
  });
});

describe("changes on an LMDB-backed chain", () => {
  it("serves the changes of old blocks again after a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "shardkit-changes-"));
    try {
      const first = await startTestService({ chain: { blockTimeMs: 0, dataDir } });
      const { hash } = first.chain.submitTransaction(signedTx(first.chain, ALICE, ALICE, [{ type: "AddKey", publicKey: keyOf("restart").publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
      const height = first.chain.produceBlock().height;
      for (let i = 0; i < 3; i++) first.chain.produceBlock();
      const asked = [
        { changes_type: "account_changes", block_id: height, account_ids: [ALICE] },
        { changes_type: "all_access_key_changes", block_id: height, account_ids: [ALICE] },
      ];
      const before = await Promise.all(asked.map((p) => rpcResult(first.archivalUrl, "changes", p)));
      const kindsBefore = await rpcResult(first.archivalUrl, "block_effects", { block_id: height });
      expect(before[0].changes.map((c: { cause: { type: string } }) => c.cause.type)).toEqual(["transaction_processing", "receipt_processing"]);
      expect(before[0].changes[0].cause.tx_hash).toBe(hash);
      expect(before[1].changes).toHaveLength(2);
      await first.close();

      const second = await startTestService({ chain: { blockTimeMs: 0, dataDir } });
      try {
        expect(second.chain.durable).toBe(true);
        expect(second.chain.head().height).toBe(height + 3);
        for (const [i, p] of asked.entries()) expect(await rpcResult(second.archivalUrl, "changes", p)).toEqual(before[i]);
        expect(await rpcResult(second.archivalUrl, "block_effects", { block_id: height })).toEqual(kindsBefore);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
