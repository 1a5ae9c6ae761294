// Token rows over real HTTP: FT mints, transfers and a batched event, NFT mints and transfers,
// staking deposits, on the on-demand dev chain with the TypeScript fixture contracts (see
// support/tsTokenContracts.ts). Balances are the contract's own at the block that changed the
// row; every response is validated against the OpenAPI spec.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Action } from "../../src/chain/transaction/index.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { ftBalanceReaderFrom } from "../../src/indexer/FtBalanceReader.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";
import { restClient } from "./restClient.js";
import { tsTokenContracts, tsTokenViews } from "./support/tsTokenContracts.js";

// Under their own parent, so they never collide with contracts a dev genesis deploys.
const PARENT = "ts.test.near";
const FT = `ft.${PARENT}`;
const NFT = `nft.${PARENT}`;
const POOL = `pool.${PARENT}`;

let service: Service;
let api: ReturnType<typeof restClient>;
beforeAll(async () => {
  service = await startTestService({
    apiPort: 0,
    chain: { functionCalls: tsTokenContracts },
    ftBalances: ftBalanceReaderFrom(tsTokenViews(() => service.chain)),
  });
  api = restClient(service.apiUrl!);
  const parentKey = { type: "AddKey" as const, publicKey: devKeyPair(PARENT).publicKey, accessKey: { nonce: 0n, permission: "FullAccess" as const } };
  await transact(ROOT, PARENT, [{ type: "CreateAccount" }, { type: "Transfer", deposit: 100n * NEAR }, parentKey]);
  for (const contract of [FT, NFT, POOL]) {
    await transact(PARENT, contract, [{ type: "CreateAccount" }, { type: "Transfer", deposit: 10n * NEAR }]);
  }
});
afterAll(() => service.close());
afterEach(() => api.expectConformant());

/** Sends a transaction over JSON-RPC, waits for FINAL and for the index; returns the height of its last receipt. */
async function transact(signer: string, receiver: string, actions: Action[], expectSuccess = true): Promise<number> {
  const signed = Buffer.from(signedTx(service.chain, signer, receiver, actions)).toString("base64");
  const result = await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
  if (expectSuccess) expect(result.status).toHaveProperty("SuccessValue");
  else expect(result.status).toHaveProperty("Failure");
  await service.indexer.whenIndexed(service.chain.head().height);
  const last = result.receipts_outcome.find((r: any) => r.outcome.executor_id === receiver);
  return service.chain.blockByHash(last.block_hash)!.height;
}

const call = (methodName: string, args: unknown, deposit = 0n): Action[] => [
  { type: "FunctionCall", methodName, args: Buffer.from(JSON.stringify(args)), gas: 30_000_000_000_000n, deposit },
];
const path = (account_id: string) => ({ params: { path: { account_id } } });

describe("FT rows", () => {
  it("show the contract's balance at the block that changed each row, for sender and receiver", async () => {
    const minted = await transact(ROOT, FT, call("ft_mint", { account_id: ALICE, amount: "1000" }));
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(ALICE))).data?.tokens).toEqual([
      { balance: "1000", contract_id: FT, last_update_block_height: minted },
    ]);
    const moved = await transact(ALICE, FT, call("ft_transfer", { receiver_id: BOB, amount: "250" }, 1n));
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(ALICE))).data?.tokens).toEqual([
      { balance: "750", contract_id: FT, last_update_block_height: moved },
    ]);
    const bob = (await api.client.GET("/v1/account/{account_id}/full", path(BOB))).data!;
    expect(bob.tokens).toEqual([{ balance: "250", contract_id: FT, last_update_block_height: moved }]);
  });

  it("index every data[] entry of a batched event (FastNEAR keeps only the first)", async () => {
    const dropped = await transact(ROOT, FT, call("airdrop", { receivers: [CAROL, ROOT, "kv.test.near"], amount: "5" }));
    for (const account of [CAROL, ROOT, "kv.test.near"]) {
      expect((await api.client.GET("/v1/account/{account_id}/ft", path(account))).data?.tokens, account).toEqual([
        { balance: "5", contract_id: FT, last_update_block_height: dropped },
      ]);
    }
  });

  it("list top holders by balance then account id, both descending", async () => {
    const top = await api.client.GET("/v1/ft/{token_id}/top", { params: { path: { token_id: FT } } });
    expect(top.data?.accounts).toEqual([
      { account_id: ALICE, balance: "750" },
      { account_id: BOB, balance: "250" },
      { account_id: ROOT, balance: "5" },
      { account_id: "kv.test.near", balance: "5" },
      { account_id: CAROL, balance: "5" },
    ]);
    expect(top.data?.token_id).toBe(FT);
  });

  it("leave rows alone when the call fails", async () => {
    const before = (await api.client.GET("/v1/account/{account_id}/ft", path(CAROL))).data!.tokens;
    await transact(CAROL, FT, call("ft_transfer", { receiver_id: "nobody.test.near", amount: "999" }, 1n), false);
    expect((await api.client.GET("/v1/account/{account_id}/ft", path(CAROL))).data!.tokens).toEqual(before);
    expect((await api.client.GET("/v1/account/{account_id}/ft", path("nobody.test.near"))).data!.tokens).toEqual([]);
  });

  it("report the block of the last balance read in /status", async () => {
    const { data } = await api.client.GET("/status");
    expect(data?.sync_balance_block_height).toBe(service.chain.head().height);
  });
});

describe("NFT and staking rows", () => {
  it("record NFT contracts for the minter's receiver and both sides of a transfer; rows stay", async () => {
    const minted = await transact(ROOT, NFT, call("nft_mint", { token_id: "1", receiver_id: ALICE }));
    expect((await api.client.GET("/v1/account/{account_id}/nft", path(ALICE))).data?.tokens).toEqual([
      { contract_id: NFT, last_update_block_height: minted },
    ]);
    const moved = await transact(ALICE, NFT, call("nft_transfer", { receiver_id: CAROL, token_id: "1" }, 1n));
    for (const account of [ALICE, CAROL]) {
      expect((await api.client.GET("/v1/account/{account_id}/nft", path(account))).data?.tokens, account).toEqual([
        { contract_id: NFT, last_update_block_height: moved },
      ]);
    }
  });

  it("record a staking deposit as a pool row, in /staking and /full", async () => {
    const staked = await transact(BOB, POOL, call("deposit_and_stake", {}, 100n * NEAR));
    expect((await api.client.GET("/v1/account/{account_id}/staking", path(BOB))).data?.pools).toEqual([
      { last_update_block_height: staked, pool_id: POOL },
    ]);
    const full = (await api.client.GET("/v1/account/{account_id}/full", path(BOB))).data!;
    expect(full.pools).toEqual([{ last_update_block_height: staked, pool_id: POOL }]);
    expect(full.tokens.map((t) => t.contract_id)).toEqual([FT]); // no FT row for the pool call
  });

  it("rebuilding the index from the chain gives what the live index serves", async () => {
    const { BlockIndexer } = await import("../../src/indexer/BlockIndexer.js");
    const { MemoryIndexStore } = await import("../../src/indexer/MemoryIndexStore.js");
    const rebuilt = BlockIndexer.rebuild(service.chain, new MemoryIndexStore(), {
      ftBalances: ftBalanceReaderFrom(tsTokenViews(() => service.chain)),
    });
    const live = service.indexer.store;
    expect(rebuilt.height).toBe(live.height);
    for (const account of [ALICE, BOB, CAROL, ROOT, "kv.test.near", PARENT, FT, NFT, POOL]) {
      expect(rebuilt.account(account)).toEqual(await live.account(account));
    }
    expect(rebuilt.ftTop(FT, 100)).toEqual(await live.ftTop(FT, 100));
  });
});
