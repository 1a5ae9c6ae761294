// The upstream follower against a real `shardkit serve --ephemeral` process: FT, NFT, staking,
// key and account activity over JSON-RPC, the follower builds the index in a real PostgreSQL
// from the RPC alone, and every REST /v1 answer served from it equals serve's own in-process
// index answer at the same height.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { ed25519FromSeed } from "../../src/chain/primitives/ed25519.js";
import { PostgresIndexStore } from "../../src/indexer/postgres/PostgresIndexStore.js";
import { UpstreamFollower } from "../../src/indexer/upstream/UpstreamFollower.js";
import { upstreamRpc } from "../../src/indexer/upstream/UpstreamRpc.js";
import { AccessControl } from "../../src/server/http/AccessControl.js";
import { createRestListener } from "../../src/server/http/createRestListener.js";
import { KeyRing } from "../../src/server/http/keyRing.js";
import { restHandlers } from "../../src/server/rest/handlers.js";
import { startServe, stop, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { startPostgres, type PostgresServer } from "../support/postgresServer.js";
import { rpc, tokenActivity, TOKEN_ACCOUNTS } from "./rpcActivity.js";

let postgres: PostgresServer;
let serve: CliProcess & ServeUrls;
let pool: pg.Pool;
let rest: Server;
let pgApiUrl: string;
const logs: string[] = [];

beforeAll(async () => {
  [postgres, serve] = await Promise.all([startPostgres(), startServe(["--block-time", "0"])]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  pool.on("error", () => undefined);
}, 60_000);

afterAll(async () => {
  rest?.close();
  await pool?.end();
  if (serve) await stop(serve);
  postgres?.destroy();
});

/** GET on a REST listener: status and parsed body. */
async function get(base: string, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(base + path);
  return { status: response.status, body: await response.json() };
}

describe("UpstreamFollower", () => {
  it("indexes serve's chain from its RPC into PostgreSQL; every REST /v1 answer equals serve's at the same height", async () => {
    const store = await PostgresIndexStore.open(pool);
    const call = upstreamRpc(serve.rpcUrl);
    // Follows while the activity runs, then stops after the snapshot's block.
    const live = new UpstreamFollower({ call, upstreamName: "serve", store, log: (l) => logs.push(l), pollMs: 50 });
    live.start();
    await tokenActivity(serve.rpcUrl);
    const snapshot = await rpc<{ snapshot_id: string; block_height: number }>(serve.rpcUrl, "shardkit_snapshot", {});
    await live.stop();
    expect(store.height).toBeLessThanOrEqual(snapshot.block_height);
    // Blocks on top make the snapshot's block final; the revert below drops them again.
    await rpc(serve.rpcUrl, "sandbox_fast_forward", { delta_height: 3 });
    const final = new UpstreamFollower({ call, upstreamName: "serve", store, log: (l) => logs.push(l), pollMs: 50, stopAfterHeight: snapshot.block_height });
    final.start();
    await waitUntil(async () => store.height === snapshot.block_height);
    await final.stop();
    // serve's own index, rebuilt at the snapshot's block.
    await rpc(serve.rpcUrl, "shardkit_revert", { snapshot_id: snapshot.snapshot_id });
    expect(logs).toEqual([]);

    rest = createRestListener({
      handlers: restHandlers,
      context: { index: store, headHeight: () => snapshot.block_height, now: Date.now, version: "pg" },
      access: new AccessControl(() => KeyRing.EMPTY),
    });
    await new Promise<void>((resolve) => rest.listen(0, "127.0.0.1", resolve));
    pgApiUrl = `http://127.0.0.1:${(rest.address() as AddressInfo).port}`;

    const paths: string[] = [];
    for (const account of [...TOKEN_ACCOUNTS, "tmp0.test.near", "nobody.test.near"]) {
      for (const part of ["full", "ft", "nft", "staking"]) paths.push(`/v1/account/${account}/${part}`);
      paths.push(`/v1/public_key/${devKeyPair(account).publicKeyString}`, `/v1/public_key/${devKeyPair(account).publicKeyString}/all`);
    }
    const extra = ed25519FromSeed(new Uint8Array(32).fill(7)).publicKeyString;
    paths.push(`/v1/public_key/${extra}`, `/v1/public_key/${extra}/all`, `/v1/ft/${FT_ACCOUNT}/top`, "/v1/ft/nobody.test.near/top");
    let rowsSeen = 0;
    for (const path of paths) {
      const [fromPg, fromServe] = await Promise.all([get(pgApiUrl, path), get(serve.apiUrl, path)]);
      expect(fromPg, path).toEqual(fromServe);
      expect((fromServe.body as { block_height: number }).block_height, path).toBe(snapshot.block_height);
      rowsSeen += JSON.stringify(fromServe.body).split("last_update_block_height").length - 1;
    }
    // The activity reached the index: rows of every kind, a deleted account, a limited key.
    expect(rowsSeen).toBeGreaterThan(10);
    expect((await get(pgApiUrl, `/v1/public_key/${extra}/all`)).body).toMatchObject({ account_ids: ["carol.test.near"] });
    expect((await get(pgApiUrl, `/v1/public_key/${extra}`)).body).toMatchObject({ account_ids: [] });
    expect((await get(pgApiUrl, "/v1/account/tmp0.test.near/full")).body).toMatchObject({ state: null });
    const [pgStatus, serveStatus] = await Promise.all([get(pgApiUrl, "/status"), get(serve.apiUrl, "/status")]);
    for (const field of ["block_height", "sync_block_height", "sync_balance_block_height", "sync_block_timestamp_nanosec"]) {
      expect((pgStatus.body as Record<string, unknown>)[field], field).toEqual((serveStatus.body as Record<string, unknown>)[field]);
    }
  }, 180_000);
});

describe("UpstreamFollower failures", () => {
  it("logs the first failed attempt at warn (repeats at debug) while the upstream is down, and the recovery at warn", async () => {
    const database = `down_${process.pid}`;
    await pool.query(`CREATE DATABASE ${database}`);
    const downPool = new pg.Pool({ connectionString: postgres.url.replace(/\/postgres$/, `/${database}`), max: 2 });
    const store = await PostgresIndexStore.open(downPool);
    const lines: string[] = [];
    // A port nothing listens on, then the real upstream: the follower's call fails over after the first attempt.
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    await new Promise((resolve) => dead.close(resolve));
    let upstreamUp = false;
    const deadCall = upstreamRpc(deadUrl, 2000);
    const liveCall = upstreamRpc(serve.rpcUrl);
    const follower = new UpstreamFollower({
      call: (method, params) => (upstreamUp ? liveCall(method, params) : deadCall(method, params)),
      upstreamName: "the test upstream",
      store,
      log: (line, level) => lines.push(`${level} ${line}`),
      pollMs: 50,
      maxBackoffMs: 200,
    });
    try {
      follower.start();
      await waitUntil(async () => lines.length >= 2);
      expect(store.height).toBeNull();
      expect(lines[0]).toMatch(/^warn index follower: asking for the final head from the test upstream failed \(1x\): fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\); retrying in 200 ms$/);
      expect(lines[1]).toMatch(/^debug .*failed \(2x\)/);
      upstreamUp = true;
      await waitUntil(async () => store.height !== null && lines.some((l) => /^warn .*answers again/.test(l)));
    } finally {
      await follower.stop();
      await downPool.end();
    }
  }, 60_000);
});

describe("UpstreamFollower on a malformed upstream answer", () => {
  it("indexes nothing while an answer does not match the spec, logs which method answered what, and goes on once the answers are right", async () => {
    const database = `malformed_${process.pid}`;
    await pool.query(`CREATE DATABASE ${database}`);
    const badPool = new pg.Pool({ connectionString: postgres.url.replace(/\/postgres$/, `/${database}`), max: 2 });
    const store = await PostgresIndexStore.open(badPool);
    const lines: string[] = [];
    const live = upstreamRpc(serve.rpcUrl);
    let malformed = true;
    // The real upstream, whose `block` answers carry the height as a string until `malformed` is cleared.
    let newerNearcore = false;
    const call = async (method: string, params: unknown): Promise<unknown> => {
      const result = await live(method, params);
      if (newerNearcore && method === "block" && isJsonObject(result) && isJsonObject(result["header"]) && Array.isArray(result["chunks"])) {
        return { ...result, extra: [], header: { ...result["header"], new_header_field: "x" }, chunks: result["chunks"].map((c: unknown) => (isJsonObject(c) ? { ...c, new_chunk_field: 7 } : c)) };
      }
      if (!malformed || method !== "block" || typeof result !== "object" || result === null || !("header" in result)) return result;
      return { ...result, header: { ...(result.header as object), height: "12", a_field_of_a_newer_nearcore: 1 } };
    };
    const follower = new UpstreamFollower({ call, upstreamName: "the test upstream", store, log: (line, level) => lines.push(`${level} ${line}`), pollMs: 50, maxBackoffMs: 100 });
    try {
      follower.start();
      await waitUntil(async () => lines.length >= 2);
      expect(store.height).toBeNull();
      expect(lines[0]).toBe(
        "warn index follower: asking for the final head from the test upstream failed (1x): the upstream's block result does not match the spec: /header/height must be integer; retrying in 100 ms",
      );
      // Right again, with fields the spec does not know in the block, its header and every chunk header (a newer nearcore): followed.
      malformed = false;
      newerNearcore = true;
      await waitUntil(async () => store.height !== null && lines.some((l) => /^warn .*answers again/.test(l)));
    } finally {
      await follower.stop();
      await badPool.end();
    }
  }, 60_000);
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; follower log:\n${logs.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
