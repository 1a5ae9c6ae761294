// REST handlers on a fixed index (no HTTP): health thresholds, status fields and latency,
// route matching and percent-decoding.

import { describe, expect, it } from "vitest";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { restHandlers } from "../../src/server/rest/handlers.js";
import { matchRoute } from "../../src/server/rest/matchRoute.js";
import type { RestContext } from "../../src/server/rest/RestContext.js";

function context(indexHeight: number, headHeight: number, nowMs: number): RestContext {
  const index = new MemoryIndexStore();
  index.apply({
    height: indexHeight,
    timestampNs: 1_700_000_000_000_000_000n,
    accountStates: new Map(),
    accessKeys: [],
    ft: [],
    nft: [],
    pools: [],
    balancesRead: false,
  });
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
    expect(matchRoute("POST", "/v1/account/a.near/full")).toEqual({ kind: "none" });
    expect(matchRoute("GET", "/v1/account/a.near")).toEqual({ kind: "none" });
    expect(matchRoute("GET", "/status")).toMatchObject({ operationId: "status" });
  });
});
