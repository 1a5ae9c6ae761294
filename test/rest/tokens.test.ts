// Token rows over real HTTP, driven by the dev genesis's wasm fixture contracts (ft, nft, pool,
// relay) on the default VM: FT transfers and a transfer-call with its refund, NFT mints and
// transfers, staking deposits. Balances are the contract's own `ft_balance_of` at the block that
// changed the row; every response is validated against the OpenAPI spec.
//
// No real fixture contract emits one NEP-297 event with several data[] entries (ft logs one
// entry per transfer/refund), so the batched-event case is covered by the tokenActivity unit
// rules, not here.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Action } from "../../src/chain/transaction/index.js";
import { FT_ACCOUNT, FT_INIT, NFT_ACCOUNT, POOL_ACCOUNT, RELAY_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { ftBalanceReaderFrom, viewCallOf } from "../../src/indexer/FtBalanceReader.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";
import { restClient } from "./restClient.js";

const TGAS = 10n ** 12n;
const MIN_STORAGE = 1_250_000_000_000_000_000_000n;

let service: Service;
let api: ReturnType<typeof restClient>;
beforeAll(async () => {
  service = await startTestService({ apiPort: 0 });
  api = restClient(service.apiUrl!);
  for (const account of [ALICE, BOB, RELAY_ACCOUNT]) {
    await transact(ROOT, FT_ACCOUNT, call("storage_deposit", { account_id: account }, MIN_STORAGE));
  }
});
afterAll(() => service.close());
afterEach(() => api.expectConformant());

interface ReceiptOutcome {
  block_hash: string;
  outcome: { executor_id: string; logs: string[]; status: object };
}
interface TxOutcome {
  status: object;
  receipts_outcome: ReceiptOutcome[];
}

/** Sends a transaction over JSON-RPC, waits for FINAL and for the index. */
async function transact(signer: string, receiver: string, actions: Action[], expectSuccess = true): Promise<TxOutcome> {
  const signed = Buffer.from(signedTx(service.chain, signer, receiver, actions)).toString("base64");
  const result = (await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" })) as TxOutcome;
  if (expectSuccess) expect(result.status).toHaveProperty("SuccessValue");
  else expect(result.status).toHaveProperty("Failure");
  await service.indexer.whenIndexed(service.chain.head().height);
  return result;
}

/** Height of the block that executed the receipt matching `which`. */
function heightOf(result: TxOutcome, which: (r: ReceiptOutcome) => boolean): number {
  const receipt = result.receipts_outcome.find(which);
  expect(receipt).toBeDefined();
  return service.chain.blockByHash(receipt!.block_hash)!.height;
}
const executedBy = (executor: string) => (r: ReceiptOutcome) => r.outcome.executor_id === executor;

const call = (methodName: string, args: unknown, deposit = 0n, gas = 100n * TGAS): Action[] => [
  { type: "FunctionCall", methodName, args: Buffer.from(JSON.stringify(args)), gas, deposit },
];
const path = (account_id: string) => ({ params: { path: { account_id } } });

/** The FT contract's own balance of an account, at a height. */
function ftBalanceAt(height: number, accountId: string): string {
  const block = service.chain.blockByHeight(height)!;
  const r = service.chain.at(block).callFunction(FT_ACCOUNT, "ft_balance_of", Buffer.from(JSON.stringify({ account_id: accountId })));
  if (!r.ok) throw new Error(r.message);
  return JSON.parse(Buffer.from(r.result).toString("utf8")) as string;
}
const ftRow = (accountId: string, height: number) => ({
  balance: ftBalanceAt(height, accountId),
  contract_id: FT_ACCOUNT,
  last_update_block_height: height,
});

describe("FT rows", () => {
  it("show the contract's balance at the block that changed each row, for sender and receiver", async () => {
    const sent = heightOf(await transact(ROOT, FT_ACCOUNT, call("ft_transfer", { receiver_id: ALICE, amount: "1000" }, 1n)), executedBy(FT_ACCOUNT));
    expect(ftBalanceAt(sent, ALICE)).toBe("1000");
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(ALICE))).data?.tokens).toEqual([ftRow(ALICE, sent)]);
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(ROOT))).data?.tokens).toEqual([ftRow(ROOT, sent)]);

    const moved = heightOf(await transact(ALICE, FT_ACCOUNT, call("ft_transfer", { receiver_id: BOB, amount: "250" }, 1n)), executedBy(FT_ACCOUNT));
    expect(moved).toBeGreaterThan(sent);
    expect(ftBalanceAt(moved, ALICE)).toBe("750");
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(ALICE))).data?.tokens).toEqual([ftRow(ALICE, moved)]);
    const bob = (await api.client.GET("/v1/account/{account_id}/full", path(BOB))).data!;
    expect(bob.tokens).toEqual([{ balance: "250", contract_id: FT_ACCOUNT, last_update_block_height: moved }]);
  });

  it("update both sides again at the block of ft_transfer_call's resolve (the refund)", async () => {
    const result = await transact(
      ROOT,
      FT_ACCOUNT,
      call("ft_transfer_call", { receiver_id: RELAY_ACCOUNT, amount: "100", msg: "keep 30" }, 1n, 300n * TGAS),
    );
    const first = heightOf(result, executedBy(FT_ACCOUNT));
    const resolved = heightOf(result, (r) => r.outcome.logs.some((log) => log.includes('"memo":"refund"')));
    expect(resolved).toBeGreaterThan(first);
    expect(ftBalanceAt(resolved, RELAY_ACCOUNT)).toBe("30");
    for (const account of [ROOT, RELAY_ACCOUNT]) {
      expect((await api.client.GET("/v1/account/{account_id}/ft", path(account))).data?.tokens, account).toEqual([
        ftRow(account, resolved),
      ]);
    }
  });

  it("list top holders by balance then account id, both descending", async () => {
    const top = await api.client.GET("/v1/ft/{token_id}/top", { params: { path: { token_id: FT_ACCOUNT } } });
    expect(top.data?.accounts).toEqual([
      { account_id: ROOT, balance: (FT_INIT.totalSupply - 1030n).toString() },
      { account_id: ALICE, balance: "750" },
      { account_id: BOB, balance: "250" },
      { account_id: RELAY_ACCOUNT, balance: "30" },
    ]);
    expect(top.data?.token_id).toBe(FT_ACCOUNT);
  });

  it("leave rows alone when the call fails", async () => {
    const before = (await api.client.GET("/v1/account/{account_id}/ft", path(ALICE))).data!.tokens;
    // The receiver never registered with storage_deposit: the contract panics.
    await transact(ALICE, FT_ACCOUNT, call("ft_transfer", { receiver_id: CAROL, amount: "1" }, 1n), false);
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(ALICE))).data!.tokens).toEqual(before);
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(CAROL))).data!.tokens).toEqual([]);
  });

  it("report the block of the last balance read in /status", async () => {
    const { data } = await api.client.GET("/status");
    expect(data?.sync_balance_block_height).toBe(service.chain.head().height);
  });
});

describe("NFT and staking rows", () => {
  it("record NFT contracts for the minted owner and both sides of a transfer; rows stay", async () => {
    const minted = heightOf(
      await transact(
        ROOT,
        NFT_ACCOUNT,
        call("nft_mint", { token_id: "rest-1", token_owner_id: ALICE, token_metadata: { title: "REST rows" } }, 10n ** 23n),
      ),
      executedBy(NFT_ACCOUNT),
    );
    expect((await api.client.GET("/v1/account/{account_id}/nft", path(ALICE))).data?.tokens).toEqual([
      { contract_id: NFT_ACCOUNT, last_update_block_height: minted },
    ]);
    const moved = heightOf(
      await transact(ALICE, NFT_ACCOUNT, call("nft_transfer", { receiver_id: CAROL, token_id: "rest-1" }, 1n)),
      executedBy(NFT_ACCOUNT),
    );
    expect(moved).toBeGreaterThan(minted);
    for (const account of [ALICE, CAROL]) {
      expect((await api.client.GET("/v1/account/{account_id}/nft", path(account))).data?.tokens, account).toEqual([
        { contract_id: NFT_ACCOUNT, last_update_block_height: moved },
      ]);
    }
  });

  it("record a staking deposit as a pool row, in /staking and /full", async () => {
    const result = await transact(BOB, POOL_ACCOUNT, call("deposit_and_stake", {}, 50n * NEAR, 200n * TGAS));
    const staked = heightOf(result, (r) => r.outcome.logs.some((log) => log.startsWith(`@${BOB} deposited`)));
    expect((await api.client.GET("/v1/account/{account_id}/staking", path(BOB))).data?.pools).toEqual([
      { last_update_block_height: staked, pool_id: POOL_ACCOUNT },
    ]);
    const full = (await api.client.GET("/v1/account/{account_id}/full", path(BOB))).data!;
    expect(full.pools).toEqual([{ last_update_block_height: staked, pool_id: POOL_ACCOUNT }]);
    expect(full.tokens.map((t) => t.contract_id)).toEqual([FT_ACCOUNT]); // no FT row for the pool call
  });

  it("rebuilding the index from the chain gives what the live index serves", async () => {
    const { BlockIndexer } = await import("../../src/indexer/BlockIndexer.js");
    const { MemoryIndexStore } = await import("../../src/indexer/MemoryIndexStore.js");
    const rebuilt = BlockIndexer.rebuild(service.chain, new MemoryIndexStore(), {
      ftBalances: ftBalanceReaderFrom(viewCallOf(service.chain)),
    });
    const live = service.indexer.store;
    expect(rebuilt.height).toBe(live.height);
    for (const account of [ALICE, BOB, CAROL, ROOT, RELAY_ACCOUNT, FT_ACCOUNT, NFT_ACCOUNT, POOL_ACCOUNT]) {
      expect(rebuilt.account(account)).toEqual(await live.account(account));
    }
    expect(rebuilt.ftTop(FT_ACCOUNT, 100)).toEqual(await live.ftTop(FT_ACCOUNT, 100));
  });
});
