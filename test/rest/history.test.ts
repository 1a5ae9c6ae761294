// The transaction history API (`/v0`, FastNEAR's Transactions API) over real HTTP against the
// dev chain's real execution: a cross-shard transfer, an ft_transfer_call with its refund, a
// failing call seen by a callback, a relayed (delegate) transfer, an NFT mint with its event,
// a batch; account rows are checked flag by flag, every answer against the OpenAPI spec; paging
// while blocks arrive; reverts. The `main` test project runs it on the in-memory history store,
// the `disk` project (a data dir per service) on the LMDB store in `<data-dir>/history`.

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { FT_ACCOUNT, NFT_ACCOUNT, RELAY_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { signDelegateAction, type Action, type NonDelegateAction } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { validateRestResponse } from "../../generated/rest/validators.js";
import type { RestOperationId } from "../../generated/rest/routes.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";
import { REFUNDER } from "../chain/vm/refunderContract.js";
import { restClient } from "../../packages/client/src/rest/index.js";
import { storyOutcome, storyReceipt } from "../support/historyStory.js";

const TGAS = 10n ** 12n;
const MIN_STORAGE = 1_250_000_000_000_000_000_000n;

let service: Service;
beforeAll(async () => {
  service = await startTestService({ apiPort: 0 });
});
afterAll(() => service.close());

interface TxResult {
  status: object;
  transaction: { hash: string };
  transaction_outcome: { block_hash: string };
  receipts_outcome: { id: string; block_hash: string; outcome: { executor_id: string; status: object } }[];
}

/** Sends a transaction over JSON-RPC, waits for FINAL and for the history index. */
async function transact(signer: string, receiver: string, actions: Action[]): Promise<TxResult> {
  const signed = Buffer.from(signedTx(service.chain, signer, receiver, actions)).toString("base64");
  const result = (await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" })) as TxResult;
  await service.historyIndexer.whenIndexed(service.chain.head().height);
  return result;
}

const call = (methodName: string, args: unknown, deposit = 0n, gas = 100n * TGAS): Action => ({
  type: "FunctionCall",
  methodName,
  args: Buffer.from(JSON.stringify(args)),
  gas,
  deposit,
});

const OPERATIONS: Record<string, RestOperationId> = {
  "/v0/transactions": "historyTransactions",
  "/v0/account": "historyAccount",
  "/v0/block": "historyBlock",
  "/v0/blocks": "historyBlocks",
  "/v0/receipt": "historyReceipt",
  "/v0/transfers": "historyTransfers",
};

/** POSTs a JSON body to a `/v0` route and checks the answer against the spec. */
async function v0(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${service.apiUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const json = await response.json();
  expect(response.headers.get("content-type")).toBe("application/json");
  expect(validateRestResponse(OPERATIONS[path]!, response.status, json)).toEqual([]);
  return { status: response.status, json };
}

const heightOf = (blockHash: string) => service.chain.blockByHash(blockHash)!.height;


/** The flags an account row has set (every flag not listed is false), or undefined without a row. */
async function rolesOf(accountId: string, hash: string): Promise<string[] | undefined> {
  const { json } = await v0("/v0/account", { account_id: accountId });
  const row = json.account_txs.find((r: { transaction_hash: string }) => r.transaction_hash === hash);
  if (row === undefined) return undefined;
  return Object.entries(row)
    .filter(([key, value]) => key.startsWith("is_") && value === true)
    .map(([key]) => key.slice(3));
}

/** Every row of an account, following resume tokens. */
async function allRows(body: Record<string, unknown>): Promise<{ tx_block_height: number; tx_index: number; transaction_hash: string }[]> {
  const rows = [];
  let token: string | undefined;
  do {
    const { json } = await v0("/v0/account", { ...body, ...(token !== undefined && { resume_token: token }) });
    rows.push(...json.account_txs);
    token = json.resume_token;
  } while (token !== undefined);
  return rows;
}

const SIGNER = ["signer", "real_signer", "any_signer", "predecessor"];

describe("account rows from real execution", () => {
  beforeAll(async () => {
    for (const account of [ALICE, RELAY_ACCOUNT]) await transact(ROOT, FT_ACCOUNT, [call("storage_deposit", { account_id: account }, MIN_STORAGE)]);
    await transact(ROOT, FT_ACCOUNT, [call("ft_transfer", { receiver_id: ALICE, amount: "1000" }, 1n)]);
  });

  it("a cross-shard transfer: the signer and the receiver, the whole row, the block and its receipt", async () => {
    const result = await transact(ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const hash = result.transaction.hash;
    const height = heightOf(result.transaction_outcome.block_hash);
    const block = service.chain.blockByHeight(height)!;
    const { json } = await v0("/v0/account", { account_id: BOB, limit: 1 });
    expect(json.account_txs).toEqual([
      {
        account_id: BOB,
        transaction_hash: hash,
        tx_block_height: height,
        tx_block_timestamp: block.timestampNs.toString(),
        tx_index: 0,
        is_signer: false,
        is_delegated_signer: false,
        is_real_signer: false,
        is_any_signer: false,
        is_predecessor: false,
        is_explicit_refund_to: false,
        is_receiver: true,
        is_real_receiver: true,
        is_function_call: false,
        is_action_arg: false,
        is_event_log: false,
        is_success: true,
      },
    ]);
    // The receipt's gas refund (NEP-642's price surplus) makes alice a receiver too.
    expect(await rolesOf(ALICE, hash)).toEqual([...SIGNER, "receiver", "success"]);
    const receiptId = result.receipts_outcome[0]!.id;
    const executedAt = heightOf(result.receipts_outcome[0]!.block_hash);
    expect(executedAt).toBe(height + 1); // bob is on another shard
    const withRows = await v0("/v0/block", { block_id: block.hash, with_transactions: true, with_receipts: true });
    expect(withRows.json.block).toMatchObject({ block_height: height, block_hash: block.hash, num_transactions: 1, prev_block_height: height - 1 });
    expect(withRows.json.block_txs).toMatchObject([
      { transaction_hash: hash, signer_id: ALICE, receiver_id: BOB, tx_index: 0, shard_id: 0, is_relayed: false, is_completed: true, is_success: true, last_block_height: executedAt + 1, real_signer_id: ALICE, real_receiver_id: BOB },
    ]);
    const receipt = await v0("/v0/receipt", { receipt_id: receiptId });
    expect(receipt.json.receipt).toEqual({
      receipt_id: receiptId,
      block_height: executedAt,
      block_timestamp: service.chain.blockByHeight(executedAt)!.timestampNs.toString(),
      receipt_index: 0,
      appear_block_height: executedAt,
      appear_receipt_index: 0,
      transaction_hash: hash,
      tx_block_height: height,
      tx_block_timestamp: block.timestampNs.toString(),
      tx_index: 0,
      predecessor_id: ALICE,
      receiver_id: BOB,
      receipt_type: "Action",
      priority: 0,
      shard_id: 1,
      is_success: true,
    });
    // The whole story is the one `EXPERIMENTAL_tx_status` tells.
    const status = (await rpcResult(service.rpcUrl, "EXPERIMENTAL_tx_status", { tx_hash: hash, sender_account_id: ALICE, wait_until: "FINAL" })) as any;
    const story = (await v0("/v0/transactions", { tx_hashes: [hash, "11111111111111111111111111111111"] })).json.transactions;
    const placeOf = async (id: string) => (await v0("/v0/receipt", { receipt_id: id })).json.receipt;
    const receipts = [];
    for (const [i, r] of status.receipts.entries()) {
      const row = await placeOf(r.receipt_id);
      const at = service.chain.blockByHeight(row.block_height)!;
      receipts.push({
        receipt: storyReceipt(r, row.appear_block_height, at.hash, at.timestampNs, row.appear_receipt_index),
        execution_outcome: storyOutcome(status.receipts_outcome[i], row.block_height, at.timestampNs, row.receipt_index),
      });
    }
    expect(receipts.map((r) => r.receipt.block_height)).toEqual([executedAt, executedAt + 1]); // bob's receipt, then alice's refund
    expect(story).toEqual([
      {
        transaction: status.transaction,
        execution_outcome: storyOutcome(status.transaction_outcome, height, block.timestampNs, 0),
        receipts,
        data_receipts: [],
      },
    ]);
    // FastNEAR's indexer leaves out the gas profile and the proof (`tx` gives them).
    expect(story[0].execution_outcome).not.toHaveProperty("proof");
    expect(story[0].execution_outcome.outcome.metadata.gas_profile).toBeNull();
    expect(receipt.json.transaction).toEqual(story[0]);
  });

  it("a cross-shard ft_transfer_call with its refund: gas refunds make a receiver, not a real receiver", async () => {
    const result = await transact(ALICE, FT_ACCOUNT, [call("ft_transfer_call", { receiver_id: RELAY_ACCOUNT, amount: "100", msg: "keep 30" }, 1n)]);
    expect(result.status).toEqual({ SuccessValue: Buffer.from('"30"').toString("base64") });
    const hash = result.transaction.hash;
    expect(await rolesOf(ALICE, hash)).toEqual([...SIGNER, "receiver", "action_arg", "event_log", "success"]);
    expect(await rolesOf(FT_ACCOUNT, hash)).toEqual(["predecessor", "receiver", "real_receiver", "function_call", "success"]);
    expect(await rolesOf(RELAY_ACCOUNT, hash)).toEqual(["receiver", "real_receiver", "function_call", "action_arg", "event_log", "success"]);
    expect(await rolesOf("system", hash)).toBeUndefined();
    const row = (await v0("/v0/transactions", { tx_hashes: [hash] })).json.transactions[0];
    // ft_transfer_call, ft_on_transfer, ft_resolve_transfer and a gas refund to alice from each
    // (NEP-642: each refunds at least the price surplus on the gas it burnt).
    expect(row.receipts.map((r: any) => `${r.receipt.predecessor_id}>${r.receipt.receiver_id}`)).toEqual([
      `${ALICE}>${FT_ACCOUNT}`,
      `system>${ALICE}`,
      `${FT_ACCOUNT}>${RELAY_ACCOUNT}`,
      `system>${ALICE}`,
      `${FT_ACCOUNT}>${FT_ACCOUNT}`,
      `system>${ALICE}`,
    ]);
    // ft_on_transfer's result reached ft_resolve_transfer as a data receipt: FastNEAR's
    // data_receipts, and a Data row just before the callback's Action row in its block.
    const callback = row.receipts[4];
    expect(row.data_receipts).toHaveLength(1);
    const [data] = row.data_receipts;
    expect(data).toMatchObject({ predecessor_id: RELAY_ACCOUNT, receiver_id: FT_ACCOUNT, receipt: { Data: { data: Buffer.from('"70"').toString("base64"), is_promise_resume: false } } });
    expect(callback.receipt.receipt.Action.input_data_ids).toEqual([data.receipt.Data.data_id]);
    const executedAt = callback.execution_outcome.block_height;
    const rows = (await v0("/v0/block", { block_id: executedAt, with_receipts: true })).json;
    const at = rows.block_receipts.findIndex((r: any) => r.receipt_id === callback.receipt.receipt_id);
    expect(rows.block_receipts[at - 1]).toMatchObject({
      receipt_id: data.receipt_id,
      receipt_type: "Data",
      is_success: true,
      receipt_index: callback.execution_outcome.index - 1,
      appear_block_height: data.block_height,
      appear_receipt_index: data.receipt_index,
      transaction_hash: hash,
    });
    expect((await v0("/v0/receipt", { receipt_id: data.receipt_id })).json.receipt).toEqual(rows.block_receipts[at - 1]);
    expect(rows.block.num_receipts).toBe(rows.block_receipts.length);
    // A receipt appears where nearcore's chunks list it: in the block's new chunks, shard by shard.
    for (const receipt of [...row.receipts.map((r: any) => r.receipt), data]) {
      const listed = [];
      for (const chunk of service.chain.blockByHeight(receipt.block_height)!.view.chunks) {
        listed.push(...(await rpcResult(service.rpcUrl, "chunk", { chunk_id: chunk.chunk_hash })).receipts.map((r: any) => r.receipt_id));
      }
      expect({ id: receipt.receipt_id, index: listed.indexOf(receipt.receipt_id) }).toEqual({ id: receipt.receipt_id, index: receipt.receipt_index });
    }
  });

  it("a failing call seen by its callback: the receipt fails, the transaction succeeds", async () => {
    const result = await transact(CAROL, RELAY_ACCOUNT, [call("join_with_failure", { receiver_id: RELAY_ACCOUNT, method_name: "echo", args: { hello: BOB } })]);
    const hash = result.transaction.hash;
    const failed = result.receipts_outcome.find((r) => "Failure" in r.outcome.status)!;
    const receipt = await v0("/v0/receipt", { receipt_id: failed.id });
    expect(receipt.json.receipt).toMatchObject({ transaction_hash: hash, predecessor_id: RELAY_ACCOUNT, receiver_id: RELAY_ACCOUNT, is_success: false });
    expect(await rolesOf(CAROL, hash)).toEqual([...SIGNER, "receiver", "success"]);
    expect(await rolesOf(RELAY_ACCOUNT, hash)).toEqual(["predecessor", "receiver", "real_receiver", "function_call", "action_arg", "success"]);
    expect(await rolesOf(BOB, hash)).toEqual(["action_arg", "success"]);
  });

  it("a relayed (delegate) transfer: relayer, delegated signer and real receiver", async () => {
    const key = devKeyPair(ALICE);
    const nonce = service.chain.at(service.chain.head()).accessKey(ALICE, formatPublicKey(key.publicKey))!.nonce + 1n;
    const inner: NonDelegateAction[] = [{ type: "Transfer", deposit: NEAR }];
    const delegate = signDelegateAction(
      { senderId: ALICE, receiverId: BOB, actions: inner, nonce, maxBlockHeight: BigInt(service.chain.head().height + 100), publicKey: key.publicKey },
      key,
    );
    const result = await transact(CAROL, ALICE, [delegate]);
    const hash = result.transaction.hash;
    expect(await rolesOf(CAROL, hash)).toEqual(["signer", "any_signer", "predecessor", "receiver", "success"]); // the gas refunds
    expect(await rolesOf(ALICE, hash)).toEqual(["delegated_signer", "real_signer", "any_signer", "predecessor", "receiver", "success"]);
    expect(await rolesOf(BOB, hash)).toEqual(["receiver", "real_receiver", "success"]);
    const height = heightOf(result.transaction_outcome.block_hash);
    const { json } = await v0("/v0/block", { block_id: height, with_transactions: true });
    expect(json.block_txs[0]).toMatchObject({ signer_id: CAROL, receiver_id: ALICE, is_relayed: true, real_signer_id: ALICE, real_receiver_id: BOB });
    expect((await v0("/v0/account", { account_id: ALICE, is_real_signer: true, limit: 1 })).json.account_txs[0].transaction_hash).toBe(hash);
    expect((await v0("/v0/account", { account_id: CAROL, is_real_signer: false, limit: 1 })).json.account_txs[0].transaction_hash).toBe(hash);
  });

  it("an NFT mint: the owner is named in the arguments and in the NEP-297 event", async () => {
    const result = await transact(ROOT, NFT_ACCOUNT, [call("nft_mint", { token_id: "history-1", token_owner_id: BOB, token_metadata: { title: "h" } }, 10n ** 23n)]);
    const hash = result.transaction.hash;
    expect(await rolesOf(BOB, hash)).toEqual(["action_arg", "event_log", "success"]);
    expect(await rolesOf(NFT_ACCOUNT, hash)).toEqual(["predecessor", "receiver", "real_receiver", "function_call", "success"]);
    expect((await v0("/v0/account", { account_id: BOB, is_event_log: true, limit: 1 })).json.account_txs[0].transaction_hash).toBe(hash);
  });

  it("a batch: one transaction, every action's accounts; a failing batch is not a success", async () => {
    const batch = await transact(ROOT, FT_ACCOUNT, [
      call("storage_deposit", { account_id: CAROL }, MIN_STORAGE),
      call("ft_transfer", { receiver_id: CAROL, amount: "5" }, 1n),
    ]);
    expect(await rolesOf(CAROL, batch.transaction.hash)).toEqual(["action_arg", "event_log", "success"]);
    const failing = await transact(ALICE, ALICE, [{ type: "Transfer", deposit: 1n }, call("missing", {}, 0n, TGAS)]);
    expect(failing.status).toHaveProperty("Failure");
    expect(await rolesOf(ALICE, failing.transaction.hash)).toEqual([...SIGNER, "receiver", "real_receiver", "function_call"]);
    const { json } = await v0("/v0/account", { account_id: ALICE, is_success: false });
    expect(json.txs_count).toBe(1);
    expect(json.account_txs.map((r: any) => r.transaction_hash)).toEqual([failing.transaction.hash]);
  });
});

describe("an explicit refund_to (promise_set_refund_to)", () => {
  it("marks the account a receipt names as refund_to, which gets the failed call's deposit back", async () => {
    const refunder = `refunder.${ROOT}`;
    await transact(ROOT, refunder, [{ type: "CreateAccount" }, { type: "Transfer", deposit: 5n * NEAR }, { type: "DeployContract", code: REFUNDER }]);
    // BOB has no `fail` method to run (no contract): the call fails and its 1000 yoctoNEAR go to CAROL.
    const result = await transact(ALICE, refunder, [call("send", "fail")]);
    expect(result.status).toHaveProperty("Failure");
    const hash = result.transaction.hash;
    expect(await rolesOf(CAROL, hash)).toEqual(["explicit_refund_to", "receiver"]);
    expect(await rolesOf(refunder, hash)).toEqual(["predecessor", "receiver", "real_receiver", "function_call"]);
    const { json } = await v0("/v0/account", { account_id: CAROL, is_explicit_refund_to: true });
    expect(json.account_txs.map((r: { transaction_hash: string }) => r.transaction_hash)).toEqual([hash]);
  });
});

describe("transfers from real execution (/v0/transfers)", () => {
  const FT_ASSET = `nep141:${FT_ACCOUNT}`;
  const transfers = async (body: Record<string, unknown>) => (await v0("/v0/transfers", body)).json;
  const sides = (rows: { amount: string; other_account_id: string | null }[]) => rows.map((r) => `${r.amount} ${r.other_account_id}`);

  it("a token's events, its ft_transfer_call and the refund ft_resolve_transfer returned, as the holder saw them", async () => {
    const { transfers: rows, resume_token } = await transfers({ account_id: ALICE, asset_id: FT_ASSET });
    // Received 1000 from the root, sent 100 to the relay with ft_transfer_call, 70 back (the relay kept 30).
    expect(sides(rows)).toEqual([`1000 ${ROOT}`, `-100 ${RELAY_ACCOUNT}`, `70 ${RELAY_ACCOUNT}`]);
    expect(resume_token).toBeNull();
    for (const row of rows) expect(row).toMatchObject({ account_id: ALICE, asset_type: "Ft", transfer_type: "FtTransfer", receipt_account_id: FT_ACCOUNT, human_amount: null, start_of_block_balance: null });
    // The relay's side of the same two movements.
    expect(sides((await transfers({ account_id: RELAY_ACCOUNT, asset_id: FT_ASSET })).transfers)).toEqual([`100 ${ALICE}`, `-70 ${ALICE}`]);
  });

  it("a NEAR Transfer action: the row, its block and its place; gas refunds from system; attached deposits", async () => {
    const bob = (await transfers({ account_id: BOB, asset_id: "native:near", direction: "receiver", limit: 1 })).transfers[0];
    const story = (await v0("/v0/account", { account_id: BOB, desc: false, limit: 1 })).json.account_txs[0];
    const receipt = (await v0("/v0/transactions", { tx_hashes: [story.transaction_hash] })).json.transactions[0].receipts[0];
    const height = heightOf(receipt.execution_outcome.block_hash);
    expect(bob).toEqual({
      block_height: String(height),
      block_timestamp: service.chain.blockByHeight(height)!.timestampNs.toString(),
      transaction_id: story.transaction_hash,
      receipt_id: receipt.receipt.receipt_id,
      action_index: 0,
      log_index: null,
      transfer_index: bob.transfer_index,
      signer_id: ALICE,
      predecessor_id: ALICE,
      receipt_account_id: BOB,
      account_id: BOB,
      other_account_id: ALICE,
      asset_id: "native:near",
      asset_type: "Near",
      amount: NEAR.toString(),
      method_name: null,
      transfer_type: "NativeTransfer",
      human_amount: 1,
      usd_amount: null,
      start_of_block_balance: null,
      end_of_block_balance: null,
    });
    expect(bob.transfer_index % 10_000).toBe(9999);
    const near = (await transfers({ account_id: ALICE, asset_id: "native:near" })).transfers;
    expect(near.some((r: { other_account_id: string }) => r.other_account_id === "system")).toBe(true);
    const withoutSystem = (await transfers({ account_id: ALICE, asset_id: "native:near", ignore_system: true })).transfers;
    expect(withoutSystem.length).toBeGreaterThan(0);
    expect(withoutSystem.every((r: { other_account_id: string }) => r.other_account_id !== "system")).toBe(true);
    expect((await transfers({ account_id: ALICE, direction: "sender" })).transfers.every((r: { amount: string }) => r.amount.startsWith("-"))).toBe(true);
    // The transfer to bob, and the one a relayer carried for alice (a delegate action: alice is the predecessor).
    expect(sides((await transfers({ account_id: ALICE, min_amount: NEAR.toString() })).transfers)).toEqual([`-${NEAR} ${BOB}`, `-${NEAR} ${BOB}`]);
    const deposit = (await transfers({ account_id: ROOT, asset_id: "native:near", direction: "sender" })).transfers.find((r: { transfer_type: string }) => r.transfer_type === "AttachedDeposit");
    expect(deposit).toMatchObject({ amount: `-${MIN_STORAGE}`, other_account_id: FT_ACCOUNT, method_name: "storage_deposit", transfer_index: expect.any(Number) });
    expect(deposit.transfer_index % 10_000).toBe(9998);
  });

  it("pages with resume tokens in both orders, and answers 400 outside the limits", async () => {
    const all = (await transfers({ account_id: ALICE })).transfers;
    expect(all.length).toBeGreaterThan(4);
    for (const desc of [false, true]) {
      const seen = [];
      let token: string | null = null;
      do {
        const page: { transfers: unknown[]; resume_token: string | null } = await transfers({ account_id: ALICE, limit: 2, desc, ...(token !== null && { resume_token: token }) });
        seen.push(...page.transfers);
        token = page.resume_token;
      } while (token !== null);
      expect(seen).toEqual(desc ? [...all].reverse() : all);
    }
    for (const body of [{ account_id: ALICE, limit: 101 }, { account_id: ALICE, limit: 0 }, { account_id: ALICE, min_amount: "-1" }, { account_id: ALICE, direction: "both" }, { limit: 5 }]) {
      const { status, json } = await v0("/v0/transfers", body);
      expect(status).toBe(400);
      expect(json.error).toBe("Bad request");
    }
  });
});

describe("paging", () => {
  it("never skips or repeats a row while blocks arrive, in both orders, within height ranges", async () => {
    const before = await allRows({ account_id: ALICE, limit: 200 });
    expect(before.length).toBeGreaterThan(4);
    const key = (r: { tx_block_height: number; tx_index: number }) => r.tx_block_height * 2 ** 20 + r.tx_index;
    for (const desc of [true, false]) {
      const seen: typeof before = [];
      let token: string | undefined;
      let added = 0;
      do {
        const { json } = await v0("/v0/account", { account_id: ALICE, limit: 2, desc, ...(token !== undefined && { resume_token: token }) });
        if (token === undefined) expect(json.txs_count).toBe(before.length);
        else expect(json.txs_count).toBeUndefined();
        seen.push(...json.account_txs);
        token = json.resume_token;
        // A new transaction of alice lands between every two pages.
        if (added < 3) {
          await transact(ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
          added++;
        }
      } while (token !== undefined);
      const keys = seen.map(key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toEqual([...keys].sort((a, b) => (desc ? b - a : a - b)));
      // Every row there when paging began was seen; newest-first pages see none of the new ones
      // (they land before the first page), oldest-first pages see them all.
      for (const row of before) expect(keys).toContain(key(row));
      expect(seen.length).toBe(desc ? before.length : before.length + added);
      before.splice(0, before.length, ...(await allRows({ account_id: ALICE })));
    }
    const heights = before.map((r) => r.tx_block_height).sort((a, b) => a - b);
    const [from, to] = [heights[1]!, heights[heights.length - 2]!];
    const ranged = await allRows({ account_id: ALICE, from_tx_block_height: from, to_tx_block_height: to, desc: false, limit: 1 });
    expect(ranged.map((r) => r.tx_block_height)).toEqual(heights.filter((h) => h >= from && h <= to));
  });

  it("pages blocks in both orders", async () => {
    const head = service.historyIndexer.store.height!;
    const newest = (await v0("/v0/blocks", { limit: 3 })).json.blocks.map((b: any) => b.block_height);
    expect(newest).toEqual([head, head - 1, head - 2]);
    const oldest = (await v0("/v0/blocks", { desc: false, from_block_height: 1, to_block_height: 2 })).json.blocks;
    expect(oldest.map((b: any) => b.block_height)).toEqual([1, 2]);
    expect(oldest[0]).toMatchObject({ prev_block_height: 0, block_hash: service.chain.blockByHeight(1)!.hash });
    expect((await v0("/v0/blocks", { desc: false, limit: 1 })).json.blocks[0]).toMatchObject({ block_height: 0, prev_block_height: null });
    // Every row (kept, or derived from the chain's block for an idle one) is the chain's block.
    const page = (await v0("/v0/blocks", { limit: 100 })).json.blocks;
    expect(page.length).toBe(Math.min(100, head + 1));
    for (const row of page) {
      const block = service.chain.blockByHeight(row.block_height)!;
      expect(row).toMatchObject({ block_hash: block.hash, prev_block_hash: block.view.header.prev_hash, block_timestamp: block.timestampNs.toString() });
      expect((await v0("/v0/block", { block_id: block.hash })).json.block).toEqual(row);
    }
    expect(page.some((row: any) => row.num_transactions === 0 && row.num_receipts === 0)).toBe(true);
    expect(page.some((row: any) => row.num_transactions > 0)).toBe(true);
  });
});

describe("the typed REST client", () => {
  it("POSTs /v0 bodies typed by the spec", async () => {
    const api = restClient({ baseUrl: service.apiUrl! });
    const { data, response } = await api.POST("/v0/account", { body: { account_id: BOB, is_receiver: true, limit: 1 } });
    expect(response.status).toBe(200);
    expect(data?.account_txs).toHaveLength(1);
    expect(data?.account_txs[0]?.is_receiver).toBe(true);
    const block = await api.POST("/v0/block", { body: { block_id: 0 } });
    expect(block.data?.block?.prev_block_height).toBeNull();
    const transfers = await api.POST("/v0/transfers", { body: { account_id: BOB, direction: "receiver", asset_id: "native:near", limit: 1 } });
    expect(transfers.data?.transfers[0]?.amount).toBe(NEAR.toString());
    expect(transfers.data?.resume_token).toEqual(expect.any(String));
  });
});

describe("bad requests", () => {
  it("answer 400 with FastNEAR's error body for every out-of-range value", async () => {
    const tooMany = Array.from({ length: 21 }, () => "11111111111111111111111111111111");
    const cases: [string, unknown][] = [
      ["/v0/transactions", { tx_hashes: tooMany }],
      ["/v0/transactions", {}],
      ["/v0/account", { account_id: ALICE, limit: 201 }],
      ["/v0/account", { account_id: ALICE, limit: 0 }],
      ["/v0/account", { account_id: ALICE, from_tx_block_height: 1_000_000_000_000_001 }],
      ["/v0/account", { account_id: ALICE, resume_token: "abc" }],
      ["/v0/account", { account_id: "Not An Account" }],
      ["/v0/account", { account_id: ALICE, is_signer: "yes" }],
      ["/v0/blocks", { limit: 101 }],
      ["/v0/blocks", { to_block_height: -1 }],
      ["/v0/block", { block_id: "not a hash" }],
      ["/v0/receipt", { receipt_id: 5 }],
      ["/v0/blocks", "{not json"],
    ];
    for (const [path, body] of cases) {
      const { status, json } = await v0(path, body);
      expect(status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(json.error).toBe("Bad request");
    }
    expect((await v0("/v0/account", { account_id: ALICE, from_tx_block_height: 1_000_000_000_000_001 })).json.message).toBe(
      "Block height exceeds maximum allowed value of 1000000000000000",
    );
    const huge = await fetch(`${service.apiUrl}/v0/account`, { method: "POST", body: JSON.stringify({ account_id: ALICE, pad: "x".repeat(70_000) }) });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { message: string }).message).toBe("the body is larger than 65536 bytes");
    const postToGet = await fetch(`${service.apiUrl}/v1/account/${ALICE}/full`, { method: "POST", body: "{}" });
    expect(postToGet.status).toBe(405);
    expect(postToGet.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const get = await fetch(`${service.apiUrl}/v0/account`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("unknown things are empty, not errors", async () => {
    expect((await v0("/v0/block", { block_id: 10 ** 9 })).json).toEqual({ block: null });
    expect((await v0("/v0/receipt", { receipt_id: "11111111111111111111111111111111" })).json).toEqual({ receipt: null, transaction: null });
    expect((await v0("/v0/account", { account_id: "nobody.test.near" })).json).toEqual({ account_txs: [], txs_count: 0 });
  });
});

describe("shardkit_revert", () => {
  it("drops the rows of reverted blocks and indexes what comes after", async () => {
    const snapshot = (await rpcResult(service.rpcUrl, "shardkit_snapshot", {})) as { snapshot_id: string };
    const dropped = await transact(ALICE, CAROL, [{ type: "Transfer", deposit: 7n }]);
    expect(await rolesOf(CAROL, dropped.transaction.hash)).toEqual(["receiver", "real_receiver", "success"]);
    await rpcResult(service.rpcUrl, "shardkit_revert", { snapshot_id: snapshot.snapshot_id });
    await service.historyIndexer.whenIndexed(service.chain.head().height);
    expect((await v0("/v0/transactions", { tx_hashes: [dropped.transaction.hash] })).json.transactions).toEqual([]);
    expect(await rolesOf(CAROL, dropped.transaction.hash)).toBeUndefined();
    const kept = await transact(ALICE, CAROL, [{ type: "Transfer", deposit: 8n }]);
    expect(await rolesOf(CAROL, kept.transaction.hash)).toEqual(["receiver", "real_receiver", "success"]);
    expect((await v0("/v0/blocks", { limit: 1 })).json.blocks[0].block_hash).toBe(service.chain.head().hash);
  });

  it("takes a transaction back to pending when the revert undoes its later receipt, and completes it again", async () => {
    const chain = service.chain;
    // Blocks by hand only: an on-demand chain would make the next ones at once for the pending work.
    chain.stop();
    onTestFinished(() => chain.start());
    const { hash } = chain.submitTransaction(signedTx(chain, ALICE, BOB, [{ type: "Transfer", deposit: 9n }]));
    const included = chain.produceBlock().height; // bob is on another shard: his receipt runs a block later
    await service.historyIndexer.whenIndexed(included);
    const snapshot = (await rpcResult(service.rpcUrl, "shardkit_snapshot", {})) as { snapshot_id: string };
    const txRow = async () => (await v0("/v0/block", { block_id: included, with_transactions: true })).json.block_txs[0];
    expect(await txRow()).toMatchObject({ transaction_hash: hash, is_completed: false, is_success: false, last_block_height: included });
    expect(await rolesOf(BOB, hash)).toBeUndefined();
    chain.produceBlock();
    await service.historyIndexer.whenIndexed(included + 1);
    // Bob's receipt ran; its gas refund to alice (NEP-642's price surplus) is still to come.
    expect(await txRow()).toMatchObject({ is_completed: false, is_success: true, last_block_height: included + 1 });
    chain.produceBlock();
    await service.historyIndexer.whenIndexed(included + 2);
    expect(await txRow()).toMatchObject({ is_completed: true, is_success: true, last_block_height: included + 2 });

    await rpcResult(service.rpcUrl, "shardkit_revert", { snapshot_id: snapshot.snapshot_id });
    await service.historyIndexer.whenIndexed(included);
    expect(service.historyIndexer.store.height).toBe(included);
    expect(await txRow()).toMatchObject({ transaction_hash: hash, is_completed: false, is_success: false, last_block_height: included });
    expect(await rolesOf(BOB, hash)).toBeUndefined();
    expect((await v0("/v0/transactions", { tx_hashes: [hash] })).json.transactions[0].receipts).toEqual([]);

    const executed = chain.produceBlock().height;
    const refunded = chain.produceBlock().height;
    await service.historyIndexer.whenIndexed(refunded);
    expect(await txRow()).toMatchObject({ is_completed: true, is_success: true, last_block_height: refunded });
    expect(await rolesOf(BOB, hash)).toEqual(["receiver", "real_receiver", "success"]);
    const receipts = (await v0("/v0/transactions", { tx_hashes: [hash] })).json.transactions[0].receipts;
    expect(receipts.map((r: any) => r.receipt.receiver_id)).toEqual([BOB, ALICE]);
    expect(receipts[0].execution_outcome.block_height).toBe(executed);
    expect(heightOf(receipts[0].execution_outcome.block_hash)).toBe(executed);
  });
});
