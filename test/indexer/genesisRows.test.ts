// The REST index has the token rows that exist from genesis (issue 34, item 3): test.near holds
// the whole FT supply of the dev genesis before any transaction, and a chain started from a
// `state dump` keeps every holder's balance, read at the genesis block as at any other.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT, FT_INIT } from "../../src/chain/genesis/devGenesis.js";
import { dumpGenesis } from "../../src/chain/genesis/dumpGenesis.js";
import type { Action } from "../../src/chain/transaction/index.js";
import { genesisTokenRows, type GenesisAmountRead } from "../../src/indexer/genesisTokenRows.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const TGAS = 10n ** 12n;
const call = (methodName: string, args: object, deposit: bigint): Action[] => [
  { type: "FunctionCall", methodName, args: Buffer.from(JSON.stringify(args)), gas: 100n * TGAS, deposit },
];

async function getJson(url: string): Promise<any> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return response.json();
}

describe("genesisTokenRows", () => {
  // Three token contracts, each answering only its own kind; kv answers nothing.
  const amounts: Record<string, Record<string, Record<string, string>>> = {
    "ft.near": { ft_balance_of: { "ft.near": "5", "a.near": "100", "b.near": "0" } },
    "nft.near": { nft_supply_for_owner: { "nft.near": "0", "b.near": "2" } },
    "pool.near": { get_account_total_balance: { "pool.near": "0", "a.near": "7" } },
  };
  const reads: string[] = [];
  const read: GenesisAmountRead = (contractId, method, accountId) => {
    reads.push(`${contractId} ${method} ${accountId}`);
    const table = amounts[contractId]?.[method];
    return table === undefined ? "" : (table[accountId] ?? "0");
  };
  const contracts = ["ft.near", "nft.near", "pool.near", "kv.near"];
  const accounts = ["a.near", "b.near", ...contracts];

  it("reads every account of each contract that answers a kind, and keeps the non-zero ones", () => {
    const rows = genesisTokenRows(contracts, accounts, { ft: read, other: read });
    expect(rows).toEqual({
      ft: [
        { accountId: "a.near", contractId: "ft.near", balance: "100" },
        { accountId: "ft.near", contractId: "ft.near", balance: "5" },
      ],
      nft: [{ accountId: "b.near", contractId: "nft.near" }],
      pools: [{ accountId: "a.near", poolId: "pool.near" }],
    });
    // kv.near was asked about itself once per kind, never about the accounts.
    expect(reads.filter((r) => r.startsWith("kv.near"))).toEqual(["kv.near ft_balance_of kv.near", "kv.near nft_supply_for_owner kv.near", "kv.near get_account_total_balance kv.near"]);
  });

  it("reads FT balances only with an FT reader, and stops at the read cap", () => {
    expect(genesisTokenRows(contracts, accounts, { other: read }).ft).toEqual([]);
    reads.length = 0;
    genesisTokenRows(contracts, accounts, { ft: read, other: read }, 5);
    expect(reads).toHaveLength(5);
  });
});

describe("the REST index of serve at genesis", () => {
  let service: Service | undefined;
  afterAll(() => service?.close());

  it("lists test.near's whole FT supply before any transaction", async () => {
    service = await startTestService({ apiPort: 0 });
    const genesisHeight = service.chain.genesisBlock.height;
    const ft = await getJson(`${service.apiUrl}/v1/account/${ROOT}/ft`);
    expect(ft.tokens).toEqual([{ contract_id: FT_ACCOUNT, balance: FT_INIT.totalSupply.toString(), last_update_block_height: genesisHeight }]);
    const top = await getJson(`${service.apiUrl}/v1/ft/${FT_ACCOUNT}/top`);
    expect(top.accounts).toEqual([{ account_id: ROOT, balance: FT_INIT.totalSupply.toString() }]);
  });

  it("a chain started from a state dump keeps every holder's balance", async () => {
    const source = await startTestService({ apiPort: 0 });
    const dir = mkdtempSync(join(tmpdir(), "shardkit-genesis-rows-"));
    dirs.push(dir);
    const file = join(dir, "genesis.json");
    try {
      const send = async (actions: Action[]) => {
        const signed = Buffer.from(signedTx(source.chain, ROOT, FT_ACCOUNT, actions)).toString("base64");
        const result = await rpcResult(source.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
        expect(result.status).toHaveProperty("SuccessValue");
      };
      await send(call("storage_deposit", { account_id: ALICE }, 1_250_000_000_000_000_000_000n));
      await send(call("ft_transfer", { receiver_id: ALICE, amount: "1234" }, 1n));
      await dumpGenesis(source.chain, source.chain.blockByFinality("final"), file);
    } finally {
      await source.close();
    }
    const restarted = await startTestService({ apiPort: 0, chain: { blockTimeMs: 0, genesisFile: file } });
    try {
      const alice = await getJson(`${restarted.apiUrl}/v1/account/${ALICE}/ft`);
      expect(alice.tokens).toEqual([{ contract_id: FT_ACCOUNT, balance: "1234", last_update_block_height: restarted.chain.genesisBlock.height }]);
      const top = await getJson(`${restarted.apiUrl}/v1/ft/${FT_ACCOUNT}/top`);
      expect(top.accounts).toEqual([
        { account_id: ROOT, balance: (FT_INIT.totalSupply - 1234n).toString() },
        { account_id: ALICE, balance: "1234" },
      ]);
    } finally {
      await restarted.close();
    }
  }, 60_000);
});
