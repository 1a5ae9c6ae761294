import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TimeoutError } from "../../src/server/errors.js";
import { ViewBudget } from "../../src/server/rpc/query/ViewBudget.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, signedTx } from "../chain/runtime/helpers.js";
import { contract } from "../chain/vm/wat.js";
import { rpc, rpcResult, startTestService } from "./harness.js";

// query call_function of code that never returns, over real HTTP: each call stops at the
// server's --view-timeout-ms with the legacy view error, views get at most half the
// thread's time (then TIMEOUT_ERROR at once), and other requests keep being answered.
const SPIN = contract(``, `(func (export "spin") (loop $l (br $l)))`);

describe("ViewBudget", () => {
  it("refuses calls with TIMEOUT_ERROR once a window's time is spent, and resets per window", () => {
    let now = 0;
    const budget = new ViewBudget(100, 200, 400, () => now);
    const slow = () => budget.run(() => void (now += 100));
    slow();
    slow();
    expect(() => slow()).toThrow(TimeoutError);
    now = 400;
    expect(budget.run((limits) => limits.timeLimitMs)).toBe(100);
  });
});

describe("query call_function with runaway code", () => {
  let service: Service;
  beforeAll(async () => {
    // 50 ms: well below the ~170 ms this loop takes to burn a view's gas, so every call stops by
    // time and the budget admits exactly two per window (100 ms of a 200 ms window).
    service = await startTestService({ viewTimeoutMs: 50 });
    const deploy = signedTx(service.chain, ALICE, ALICE, [{ type: "DeployContract", code: SPIN }]);
    await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: Buffer.from(deploy).toString("base64"), wait_until: "FINAL" });
  });
  afterAll(() => service.close());

  it("answers every call with a well-formed error and keeps answering other requests", async () => {
    const spin = { request_type: "call_function", finality: "optimistic", account_id: ALICE, method_name: "spin", args_base64: "" };
    const started = performance.now();
    const calls = Array.from({ length: 6 }, () => rpc(service.rpcUrl, "query", spin));
    const status = rpc(service.rpcUrl, "status", []);
    const replies = await Promise.all(calls);
    const elapsedMs = performance.now() - started;
    expect((await status).body.result.chain_id).toBeDefined();
    const legacy = replies.filter((r) => r.body.result !== undefined);
    const refused = replies.filter((r) => r.body.error !== undefined);
    for (const r of legacy) {
      expect(r.status).toBe(200);
      expect(r.body.result.error).toMatch(/wasm execution failed with error: .*GasLimitExceeded/);
      expect(r.body.result.logs).toEqual([]);
    }
    for (const r of refused) {
      expect(r.status).toBe(408);
      expect(r.body.error.cause.name).toBe("TIMEOUT_ERROR");
    }
    // Two runaway calls fill the 100 ms share of a 200 ms window; the rest are refused at once.
    // A burst on a loaded machine can outlast a window: two calls per window it spans (six
    // unrefused calls would take 300 ms and fail this bound).
    expect(legacy.length).toBeGreaterThanOrEqual(1);
    expect(legacy.length).toBeLessThanOrEqual(2 * (Math.floor(elapsedMs / 200) + 1));
    expect(refused.length).toBe(6 - legacy.length);
    // Other requests were answered meanwhile, views stay refused until the window ends.
    expect((await rpc(service.rpcUrl, "block", { finality: "final" })).body.result.header).toBeDefined();
  });
});
