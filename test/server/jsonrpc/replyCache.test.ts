import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReplyCache } from "../../../src/server/jsonrpc/ReplyCache.js";
import type { Service } from "../../../src/server/startService.js";
import { post, startTestService } from "../harness.js";

// The reply cache over real HTTP: a repeated request answers the same bytes as the first, and
// every change of the head (a block, a state patch, a revert) is visible at once, whatever the
// finality asked for. Errors are answered as before, never from the cache.
let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
  url = service.rpcUrl;
});
afterAll(() => service.close());

const body = (params: object, id: unknown = "dontcare") => JSON.stringify({ jsonrpc: "2.0", id, method: "query", params });
const ZERO_HASH = "11111111111111111111111111111111";
const patchBalance = (accountId: string, amount: bigint) =>
  post(
    url,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "sandbox_patch_state",
      params: { records: [{ Account: { account_id: accountId, account: { amount: amount.toString(), locked: "0", code_hash: ZERO_HASH, storage_usage: 182 } } }] },
    }),
  );
const amountOf = (text: string) => (JSON.parse(text) as { result: { amount: string } }).result.amount;

describe("reply cache", () => {
  it("answers a repeated request, and the same request under another id, with the same bytes as a fresh computation", async () => {
    const page = { request_type: "view_state", finality: "final", account_id: "kv.test.near", prefix_base64: "", limit: 10 };
    const first = await post(url, body(page));
    const second = await post(url, body(page));
    const otherId = await post(url, body(page, 42));
    expect(first.status).toBe(200);
    expect(second).toEqual(first);
    expect(otherId.text).toBe(first.text.replace(/"id":"dontcare"}$/, '"id":42}'));
    // The archival listener has its own processor and cache: its first answer is computed afresh.
    expect((await post(service.archivalUrl, body(page))).text).toBe(first.text);
  });

  it("follows the head: optimistic and final reads see a patch once it is in the head and final blocks", async () => {
    const optimistic = body({ request_type: "view_account", finality: "optimistic", account_id: "carol.test.near" });
    const final = body({ request_type: "view_account", finality: "final", account_id: "carol.test.near" });
    const before = amountOf((await post(url, optimistic)).text);
    expect(amountOf((await post(url, optimistic)).text)).toBe(before);
    expect(amountOf((await post(url, final)).text)).toBe(before);
    const patched = (BigInt(before) + 12345n).toString();
    service.chain.stop(); // blocks only as this test makes them (the patch's own block, then two by hand)
    expect((await patchBalance("carol.test.near", BigInt(patched))).status).toBe(200);
    expect(amountOf((await post(url, optimistic)).text)).toBe(patched);
    // final trails the head by two blocks: still the old balance, then the new one.
    expect(amountOf((await post(url, final)).text)).toBe(before);
    service.chain.produceBlock();
    service.chain.produceBlock();
    expect(amountOf((await post(url, final)).text)).toBe(patched);
    service.chain.start();
  });

  it("follows a revert back to an earlier head", async () => {
    const optimistic = body({ request_type: "view_account", finality: "optimistic", account_id: "bob.test.near" });
    const snapshot = (await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "shardkit_snapshot", params: {} }))).text;
    const id = (JSON.parse(snapshot) as { result: { snapshot_id: string } }).result.snapshot_id;
    const before = amountOf((await post(url, optimistic)).text);
    await patchBalance("bob.test.near", 7n);
    expect(amountOf((await post(url, optimistic)).text)).toBe("7");
    const reverted = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "shardkit_revert", params: { snapshot_id: id } }));
    expect(reverted.status).toBe(200);
    expect(amountOf((await post(url, optimistic)).text)).toBe(before);
  });

  it("answers invalid and failing requests as before, every time", async () => {
    const invalid = body({ request_type: "view_state", finality: "final", account_id: "kv.test.near", prefix_base64: "", limit: 0 });
    const unknown = body({ request_type: "view_account", finality: "final", account_id: "nobody.test.near" });
    for (const request of [invalid, unknown]) {
      const first = await post(url, request);
      expect(first.text).toContain('"error"');
      expect(await post(url, request)).toEqual(first);
    }
  });
});

describe("ReplyCache bounds", () => {
  const reply = (n: number) => ({ status: 200, body: `{"jsonrpc":"2.0","result":${n},"id":1}` });

  it("keeps at most maxEntries per level, dropping the oldest half on overflow", () => {
    const cache = new ReplyCache({ generation: () => 0, maxEntries: 4 });
    for (let i = 0; i < 5; i++) cache.remember(`body${i}`, `params${i}`, String(i), reply(i));
    expect(cache.replyFor("body0")).toBeUndefined();
    expect(cache.replyFor("body1")).toBeUndefined();
    expect(cache.replyFor("body2")).toEqual(reply(2));
    expect(cache.replyFor("body4")).toEqual(reply(4));
    expect(cache.resultFor("params0")).toBeUndefined();
    expect(cache.resultFor("params4")).toBe("4");
  });

  it("keeps at most maxBytes of keys and answers per level", () => {
    const cache = new ReplyCache({ generation: () => 0, maxBytes: 100 });
    for (let i = 0; i < 10; i++) cache.remember(`b${i}`, `p${i}`, "x".repeat(30), reply(i));
    let kept = 0;
    for (let i = 0; i < 10; i++) if (cache.resultFor(`p${i}`) !== undefined) kept++;
    expect(kept).toBeGreaterThan(0);
    expect(kept * 32).toBeLessThanOrEqual(100);
    expect(cache.resultFor("p9")).toBe("x".repeat(30));
  });

  it("drops everything when the generation changes", () => {
    let generation = 1;
    const cache = new ReplyCache({ generation: () => generation });
    cache.remember("b", "p", "1", reply(1));
    cache.refresh();
    expect(cache.replyFor("b")).toEqual(reply(1));
    generation = 2;
    cache.refresh();
    expect(cache.replyFor("b")).toBeUndefined();
    expect(cache.resultFor("p")).toBeUndefined();
  });

  it("never caches call_function or other methods", () => {
    const cache = new ReplyCache({ generation: () => 0 });
    expect(cache.cacheable("query", { request_type: "call_function" })).toBe(false);
    expect(cache.cacheable("block", { finality: "final" })).toBe(false);
    expect(cache.cacheable("query", { request_type: "view_state" })).toBe(true);
  });
});
