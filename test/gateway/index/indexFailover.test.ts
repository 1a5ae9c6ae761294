// Three `shardkit gateway --index --postgres` processes on one PostgreSQL in front of a real
// `shardkit serve`: one leader follows the chain; SIGKILL of the leader mid-activity → another
// takes over and the index catches up; PostgreSQL restarted mid-activity → the gateways recover
// without a restart. At the end the index equals, table by table, one built by a single clean
// follower run to the same height (no row lost or duplicated; the `/v0` history tables too), and /v1 and /status answer
// through every surviving instance.

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT } from "../../../src/chain/genesis/devGenesis.js";
import { PostgresHistoryStore } from "../../../src/indexer/history/PostgresHistoryStore.js";
import { PostgresIndexStore } from "../../../src/indexer/postgres/PostgresIndexStore.js";
import { UpstreamFollower } from "../../../src/indexer/upstream/UpstreamFollower.js";
import { upstreamRpc } from "../../../src/indexer/upstream/UpstreamRpc.js";
import { startServe, stop, type CliProcess, type ServeUrls } from "../../cli/cliProcess.js";
import { rpc, tokenActivity } from "../../indexer/rpcActivity.js";
import { startPostgres, type PostgresServer } from "../../support/postgresServer.js";
import { startGatewayProcess, type GatewayUrls } from "../gatewayProcess.js";

type Gateway = CliProcess & GatewayUrls;
let postgres: PostgresServer;
let serve: CliProcess & ServeUrls;
let pool: pg.Pool;
const gateways: Gateway[] = [];

beforeAll(async () => {
  [postgres, serve] = await Promise.all([startPostgres(), startServe(["--block-time", "0"])]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  pool.on("error", () => undefined);
}, 60_000);

afterAll(async () => {
  for (const gateway of gateways) gateway.child.kill("SIGKILL");
  await pool?.end();
  if (serve) await stop(serve);
  postgres?.destroy();
});

const isLeader = (g: Gateway) => /index: leader/.test(g.output().stdout);
const alive = () => gateways.filter((g) => g.child.exitCode === null && g.child.signalCode === null);

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out waiting for ${what}; gateway output:\n${gateways.map((g) => g.output().stdout + g.output().stderr).join("\n---\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function indexHeight(): Promise<number | null> {
  const { rows } = await pool.query<{ height: string | null }>("SELECT height FROM idx_meta");
  return rows[0]?.height == null ? null : Number(rows[0].height);
}
const finalHeight = async () => (await rpc<{ header: { height: number } }>(serve.rpcUrl, "block", { finality: "final" })).header.height;

/** Waits until the index holds the upstream's final head. */
async function caughtUp(): Promise<number> {
  return until("the index to reach the final head", async () => {
    const [indexed, final] = await Promise.all([indexHeight(), finalHeight()]);
    return indexed !== null && indexed >= final ? indexed : undefined;
  });
}

/** Every table's rows in key order, the index's whole content. */
async function dump(client: pg.Pool): Promise<Record<string, unknown[]>> {
  const tables: Record<string, string> = {
    idx_accounts: "account_id",
    idx_access_keys: "public_key, account_id",
    idx_ft: "account_id, contract_id",
    idx_ft_balances: "contract_id, account_id",
    idx_nft: "account_id, contract_id",
    idx_pools: "account_id, pool_id",
    idx_meta: "height",
    hist_meta: "height",
    hist_blocks: "block_height",
    hist_transactions: "transaction_hash",
    hist_account_txs: "account_id, tx_block_height, tx_index",
    hist_account_counts: "account_id",
    hist_receipts: "receipt_id",
  };
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(tables)) out[table] = (await client.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
  return out;
}

describe("gateway --index --postgres, three instances", () => {
  it("one leader writes; SIGKILL of the leader and a PostgreSQL restart mid-activity lose and duplicate nothing", async () => {
    const args = ["--upstream", serve.rpcUrl, "--index", "--postgres", postgres.url, "--probe-interval", "500"];
    gateways.push(...(await Promise.all([0, 1, 2].map(() => startGatewayProcess(args)))));
    const first = await until("a leader", async () => gateways.find(isLeader));
    await tokenActivity(serve.rpcUrl, 0);
    await caughtUp();
    expect(gateways.filter(isLeader)).toEqual([first]);

    // SIGKILL the leader while transactions are running.
    const before = (await indexHeight())!;
    const round1 = tokenActivity(serve.rpcUrl, 1);
    await until("the leader to index the new activity", async () => ((await indexHeight())! > before ? true : undefined));
    first.child.kill("SIGKILL");
    expect(await first.exited).toBeNull();
    await round1;
    const second = await until("another leader", async () => alive().find(isLeader));
    expect(second).not.toBe(first);
    await caughtUp();

    // PostgreSQL restarted while transactions are running.
    const round2 = tokenActivity(serve.rpcUrl, 2);
    const restartedAt = (await indexHeight())!;
    await until("the index to move", async () => ((await indexHeight())! > restartedAt ? true : undefined));
    postgres.restart();
    await round2;
    const indexed = await caughtUp();
    await until("a leader after the restart", async () =>
      alive().some((g) => /lost the leader lock/.test(g.output().stdout)) && alive().find(isLeader) ? true : undefined,
    );

    // Every surviving instance serves /v1 and reports the lag once the index is current.
    for (const gateway of alive()) {
      const full = await until("/v1 through " + gateway.apiUrl, async () => {
        const response = await fetch(`${gateway.apiUrl}/v1/account/alice.test.near/full`);
        return response.status === 200 ? ((await response.json()) as { block_height: number; tokens: unknown[]; nfts: unknown[] }) : undefined;
      });
      expect(full.block_height).toBeGreaterThanOrEqual(indexed);
      expect(full.tokens.length).toBe(1);
      const status = (await (await fetch(`${gateway.apiUrl}/status`)).json()) as { gateway: { index: { lag_blocks: number | null; lag_sec: number | null } } };
      expect(status.gateway.index.lag_blocks).toBe(0);
      expect(status.gateway.index.lag_sec).toEqual(expect.any(Number));
    }
    const top = (await (await fetch(`${alive()[0]!.apiUrl}/v1/ft/${FT_ACCOUNT}/top`)).json()) as { accounts: { account_id: string }[] };
    expect(top.accounts.map((a) => a.account_id)).toContain("relay.test.near");

    // Stop writing, then rebuild the same height with one clean follower run into a second database.
    for (const gateway of alive()) await stop(gateway);
    const height = (await indexHeight())!;
    await pool.query("CREATE DATABASE clean");
    const cleanPool = new pg.Pool({ connectionString: postgres.url.replace(/\/postgres$/, "/clean"), max: 2 });
    try {
      const cleanStore = await PostgresIndexStore.open(cleanPool);
      const follower = new UpstreamFollower({
        call: upstreamRpc(serve.rpcUrl),
        upstreamName: "serve",
        store: cleanStore,
        history: await PostgresHistoryStore.open(cleanPool),
        log: () => undefined,
        pollMs: 50,
        stopAfterHeight: height,
      });
      follower.start();
      await until("the clean run", async () => cleanStore.height === height);
      await follower.stop();
      const [failedOver, clean] = await Promise.all([dump(pool), dump(cleanPool)]);
      expect(failedOver).toEqual(clean);
      expect(failedOver.idx_ft!.length).toBeGreaterThan(3);
      expect(failedOver.idx_nft!.length).toBeGreaterThan(1);
      expect(failedOver.hist_account_txs!.length).toBeGreaterThan(10);
    } finally {
      await cleanPool.end();
    }
  }, 300_000);
});
