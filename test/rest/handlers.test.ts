// REST handlers on a fixed index (no HTTP): health thresholds, status fields and latency,
// route matching and percent-decoding.

import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { IndexReader } from "../../src/indexer/IndexStore.js";
import { AccessControl } from "../../src/server/http/AccessControl.js";
import { createRestListener } from "../../src/server/http/createRestListener.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { restHandlers } from "../../src/server/rest/handlers.js";
import { matchRoute } from "../../src/server/rest/matchRoute.js";
import type { RestContext } from "../../src/server/rest/RestContext.js";
import { blockUpdate } from "../support/indexBlockUpdate.js";

function context(indexHeight: number, headHeight: number, nowMs: number): RestContext {
  const index = new MemoryIndexStore();
  index.apply(blockUpdate(indexHeight, 1_700_000_000_000_000_000n));
  return { index, headHeight: () => headHeight, now: () => nowMs, version: "9.9.9" };
}

describe("REST handlers", () => {
  it("health is ok up to 3 blocks behind the head, then says how far behind (still 200)", () => {
    expect(restHandlers.health({}, context(10, 13, 0))).toEqual({ status: 200, body: { block_height: 10, status: "ok" } });
    expect(restHandlers.health({}, context(10, 15, 0))).toEqual({
      status: 200,
      body: { block_height: 10, status: "HighSyncBlockDiff { diff: 5, max_diff: 3 }" },
    });
  });

  it("status reports the block, its time and the latency in seconds", () => {
    const reply = restHandlers.status({}, context(7, 7, 1_700_000_000_412));
    expect(reply).toEqual({
      status: 200,
      body: {
        block_height: 7,
        sync_balance_block_height: null,
        sync_block_height: 7,
        sync_block_timestamp_nanosec: "1700000000000000000",
        sync_latency_sec: 0.412,
        version: "9.9.9",
      },
    });
  });

  it("an empty path parameter is an invalid argument, not a crash", () => {
    expect(restHandlers.accountFull({ account_id: "" }, context(1, 1, 0))).toEqual({ status: 400, body: "Invalid argument" });
    expect(restHandlers.publicKeyAccounts({ public_key: "" }, context(1, 1, 0))).toEqual({ status: 400, body: "Invalid argument" });
  });
});

describe("matchRoute", () => {
  it("matches templates, decodes parameters and tells bad encodings apart from unknown paths", () => {
    expect(matchRoute("GET", "/v1/public_key/ed25519%3Aabc/all")).toEqual({
      kind: "route",
      operationId: "publicKeyAllAccounts",
      params: { public_key: "ed25519:abc" },
    });
    expect(matchRoute("GET", "/v1/account/a.near/full")).toMatchObject({ operationId: "accountFull", params: { account_id: "a.near" } });
    expect(matchRoute("GET", "/v1/account/%E0%A4%A/full")).toEqual({ kind: "bad-parameter", operationId: "accountFull" });
    expect(matchRoute("POST", "/v1/account/a.near/full")).toEqual({ kind: "method-not-allowed", allow: "GET, HEAD, OPTIONS" });
    expect(matchRoute("GET", "/v0/account")).toEqual({ kind: "method-not-allowed", allow: "POST, OPTIONS" });
    expect(matchRoute("POST", "/v1/nope")).toEqual({ kind: "none" });
    expect(matchRoute("GET", "/v1/account/a.near")).toEqual({ kind: "none" });
    expect(matchRoute("GET", "/status")).toMatchObject({ operationId: "status" });
  });
});

describe("a store that answers asynchronously (as a shared engine would)", () => {
  it("serves the same answers through the handlers and the listener", async () => {
    const sync = context(5, 5, 0);
    const memory = sync.index;
    const later: IndexReader = {
      status: async () => memory.status(),
      account: async (id) => memory.account(id),
      accountsByKey: async (pk, full) => memory.accountsByKey(pk, full),
      ftTop: async (token, limit) => memory.ftTop(token, limit),
    };
    const ctx = { ...sync, index: later };
    const pending = restHandlers.accountFull({ account_id: "a.near" }, ctx);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual(restHandlers.accountFull({ account_id: "a.near" }, sync));
    const server = createRestListener({ handlers: restHandlers, context: ctx, access: AccessControl.open() });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const reply = await fetch(`${base}/v1/account/a.near/full`);
      expect(reply.status).toBe(200);
      expect(await reply.json()).toEqual({ account_id: "a.near", block_height: 5, nfts: [], pools: [], state: null, tokens: [] });
      expect(await (await fetch(`${base}/health`)).json()).toEqual({ block_height: 5, status: "ok" });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("answers 500 \"Internal server error\" when a read fails, and reports it", async () => {
    const reported: string[] = [];
    const failing: IndexReader = {
      status: () => Promise.reject(new Error("db down")),
      account: () => Promise.reject(new Error("db down")),
      accountsByKey: () => {
        throw new Error("db down");
      },
      ftTop: () => Promise.reject(new Error("db down")),
    };
    const server = createRestListener({
      handlers: restHandlers,
      context: { ...context(1, 1, 0), index: failing },
      access: AccessControl.open(),
      onInternalError: (op, error) => reported.push(`${op}: ${String(error)}`),
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ["/v1/account/a.near/full", "/v1/public_key/ed25519:11111111111111111111111111111111"]) {
        const reply = await fetch(`${base}${path}`);
        expect(reply.status).toBe(500);
        expect(await reply.text()).toBe('"Internal server error"');
      }
      expect(reported).toEqual(["accountFull: Error: db down", "publicKeyAccounts: Error: db down"]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
