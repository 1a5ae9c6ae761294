// REST over real HTTP against the on-demand dev chain: account state, key lookups (full
// access vs /all, deleted keys, implicit accounts), FastNEAR's shapes and errors, block height,
// ordering and revalidation. Every response is validated against the OpenAPI spec.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mlDsa65FromSeed } from "@shardkit/primitives/mlDsa65";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { formatPublicKeyAsHandle } from "@shardkit/primitives/publicKeyHandle";
import type { Action } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, keyOf, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";
import { rawGet, restClient } from "./restClient.js";

let service: Service;
let api: ReturnType<typeof restClient>;
beforeAll(async () => {
  service = await startTestService({ apiPort: 0 });
  api = restClient(service.apiUrl!);
});
afterAll(() => service.close());
afterEach(() => api.expectConformant());

/** Sends a transaction over JSON-RPC, waits for FINAL, then for the index to reach the head. */
async function transact(signer: string, receiver: string, actions: Action[]): Promise<void> {
  const signed = Buffer.from(signedTx(service.chain, signer, receiver, actions)).toString("base64");
  const result = await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
  expect(result.status).toHaveProperty("SuccessValue");
  await service.indexer.whenIndexed(service.chain.head().height);
}

const full = (accountId: string) => api.client.GET("/v1/account/{account_id}/full", { params: { path: { account_id: accountId } } });
const byKey = (publicKey: string) => api.client.GET("/v1/public_key/{public_key}", { params: { path: { public_key: publicKey } } });
const byKeyAll = (publicKey: string) => api.client.GET("/v1/public_key/{public_key}/all", { params: { path: { public_key: publicKey } } });

describe("GET /v1/account/{account_id}/full", () => {
  it("answers the account's state at the block it reports, keys in FastNEAR's (alphabetical) order", async () => {
    const { data, response } = await full(ALICE);
    expect(response.status).toBe(200);
    const view = await rpcResult(service.rpcUrl, "query", { request_type: "view_account", block_id: data!.block_height, account_id: ALICE });
    expect(data).toEqual({
      account_id: ALICE,
      block_height: data!.block_height,
      nfts: [],
      pools: [],
      state: { balance: view.amount, locked: view.locked, storage_bytes: view.storage_usage },
      tokens: [],
    });
    const raw = await (await rawGet(`${service.apiUrl}/v1/account/${ALICE}/full`)).text();
    expect(Object.keys(JSON.parse(raw))).toEqual(["account_id", "block_height", "nfts", "pools", "state", "tokens"]);
    expect(raw.indexOf('"balance"')).toBeLessThan(raw.indexOf('"locked"'));
  });

  it("follows a transfer: the new balance appears at the block the index reached", async () => {
    await transact(ROOT, BOB, [{ type: "Transfer", deposit: 7n * NEAR }]);
    const { data } = await full(BOB);
    const view = await rpcResult(service.rpcUrl, "query", { request_type: "view_account", block_id: data!.block_height, account_id: BOB });
    expect(data!.state?.balance).toBe(view.amount);
    expect(data!.block_height).toBe(service.chain.head().height);
  });

  it("answers an unknown account with 200, empty lists and state null", async () => {
    const { data, response } = await full("nobody.test.near");
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ account_id: "nobody.test.near", nfts: [], pools: [], state: null, tokens: [] });
  });

  it.each(["Root.near", "a", "bad..dots", "-lead.near", "x".repeat(65), "%E0%A4%A"])(
    "answers the invalid id %j with 400 and the JSON string \"Invalid argument\"",
    async (id) => {
      const response = await rawGet(`${service.apiUrl}/v1/account/${id}/full`);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.text()).toBe('"Invalid argument"');
    },
  );

  it("answers the ft, nft and staking routes with empty rows for a plain account", async () => {
    const path = { params: { path: { account_id: ALICE } } };
    expect((await api.client.GET("/v1/account/{account_id}/ft", path)).data).toMatchObject({ account_id: ALICE, tokens: [] });
    expect((await api.client.GET("/v1/account/{account_id}/nft", path)).data).toMatchObject({ account_id: ALICE, tokens: [] });
    expect((await api.client.GET("/v1/account/{account_id}/staking", path)).data).toMatchObject({ account_id: ALICE, pools: [] });
    const top = await api.client.GET("/v1/ft/{token_id}/top", { params: { path: { token_id: "no-such-token.test.near" } } });
    expect(top.data).toMatchObject({ accounts: [], token_id: "no-such-token.test.near" });
    const bad = await api.client.GET("/v1/ft/{token_id}/top", { params: { path: { token_id: "BAD" } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toBe("Invalid argument");
  });
});

describe("GET /v1/public_key/{public_key}", () => {
  it("finds dev accounts by their key, with ':' raw or percent-encoded, and echoes the normalized key", async () => {
    const alice = service.chain.devAccounts.find((a) => a.accountId === ALICE)!;
    expect((await byKey(alice.publicKey)).data).toMatchObject({ account_ids: [ALICE], public_key: alice.publicKey });
    const raw = await rawGet(`${service.apiUrl}/v1/public_key/${alice.publicKey}`);
    expect(await raw.json()).toMatchObject({ account_ids: [ALICE], public_key: alice.publicKey });
    const upper = alice.publicKey.replace("ed25519:", "ED25519%3A");
    expect(await (await rawGet(`${service.apiUrl}/v1/public_key/${upper}`)).json()).toMatchObject({ public_key: alice.publicKey });
    const bare = alice.publicKey.slice("ed25519:".length);
    expect(await (await rawGet(`${service.apiUrl}/v1/public_key/${bare}`)).json()).toMatchObject({ account_ids: [ALICE] });
  });

  it("lists full-access holders on the plain route and every holder on /all; a deleted key disappears", async () => {
    const shared = keyOf("rest-shared");
    const sharedKey = formatPublicKey(shared.publicKey);
    const limited: Action = {
      type: "AddKey",
      publicKey: shared.publicKey,
      accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: BOB, methodNames: ["x"] } } },
    };
    await transact(BOB, BOB, [{ type: "AddKey", publicKey: shared.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]);
    await transact(ALICE, ALICE, [limited]);
    await transact(ROOT, ROOT, [{ type: "AddKey", publicKey: shared.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]);
    expect((await byKey(sharedKey)).data?.account_ids).toEqual([BOB, ROOT]);
    expect((await byKeyAll(sharedKey)).data?.account_ids).toEqual([ALICE, BOB, ROOT]);

    await transact(BOB, BOB, [{ type: "DeleteKey", publicKey: shared.publicKey }]);
    const after = await byKeyAll(sharedKey);
    expect(after.data?.account_ids).toEqual([ALICE, ROOT]);
    expect(after.data?.block_height).toBe(service.chain.head().height);
  });

  it("finds an ML-DSA-65 key by its full key or its ml-dsa-65-hash: handle, and answers the handle", async () => {
    const ml = mlDsa65FromSeed(new Uint8Array(32).fill(65));
    await transact(CAROL, CAROL, [{ type: "AddKey", publicKey: ml.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]);
    const handle = formatPublicKeyAsHandle(ml.publicKey);
    expect(handle.startsWith("ml-dsa-65-hash:")).toBe(true);
    expect((await byKey(formatPublicKey(ml.publicKey))).data).toMatchObject({ account_ids: [CAROL], public_key: handle });
    expect((await byKeyAll(handle)).data).toMatchObject({ account_ids: [CAROL], public_key: handle });
  });

  it("finds secp256k1 keys, with the curve prefix in any case", async () => {
    const data = new Uint8Array(64).map((_, i) => (i * 7 + 3) & 0xff);
    const publicKey = { keyType: 1 as const, data };
    await transact(CAROL, CAROL, [{ type: "AddKey", publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]);
    const text = formatPublicKey(publicKey);
    expect(text.startsWith("secp256k1:")).toBe(true);
    expect((await byKey(text)).data).toMatchObject({ account_ids: [CAROL], public_key: text });
    const upper = await rawGet(`${service.apiUrl}/v1/public_key/${text.replace("secp256k1:", "SECP256K1%3A")}/all`);
    expect(await upper.json()).toMatchObject({ account_ids: [CAROL], public_key: text });
  });

  it("finds an implicit account created by a transfer", async () => {
    const key = keyOf("rest-implicit");
    const implicitId = Buffer.from(key.publicKey.data).toString("hex");
    await transact(ROOT, implicitId, [{ type: "Transfer", deposit: NEAR }]);
    expect((await byKey(formatPublicKey(key.publicKey))).data?.account_ids).toEqual([implicitId]);
  });

  it("answers an unknown key with 200 and no accounts, a malformed one with 400", async () => {
    const unknown = formatPublicKey(keyOf("never-used").publicKey);
    expect((await byKey(unknown)).data).toMatchObject({ account_ids: [], public_key: unknown });
    for (const bad of ["ed25519:short", "rsa:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp", "ed25519:0OIl", "secp256k1:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp"]) {
      const reply = await byKeyAll(bad);
      expect(reply.response.status, bad).toBe(400);
      expect(reply.error).toBe("Invalid argument");
    }
  });
});

describe("status, health and caching", () => {
  it("reports the index height, block time and health", async () => {
    const { data } = await api.client.GET("/status");
    const head = service.chain.head();
    expect(data).toMatchObject({
      block_height: head.height,
      sync_block_height: head.height,
      sync_block_timestamp_nanosec: head.timestampNs.toString(),
      version: "0.1.0",
    });
    // null without a contract VM to read balances with; with one, every indexed block reads them.
    expect([null, head.height]).toContain(data!.sync_balance_block_height);
    expect(typeof data!.sync_latency_sec).toBe("number");
    expect((await api.client.GET("/health")).data).toEqual({ block_height: head.height, status: "ok" });
  });

  it("sends an ETag and Cache-Control, answers 304 while the rows are unchanged (across blocks), 200 once they change", async () => {
    const url = `${service.apiUrl}/v1/account/${ALICE}/full`;
    const first = await rawGet(url);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const firstHeight = ((await first.json()) as { block_height: number }).block_height;
    expect(first.headers.get("x-block-height")).toBe(String(firstHeight));
    const again = await rawGet(url, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // Blocks that do not touch alice: still 304, and the header names the newer block.
    await transact(BOB, CAROL, [{ type: "Transfer", deposit: 1n }]);
    const later = await rawGet(url, { headers: { "if-none-match": `"other", ${etag}` } });
    expect(later.status).toBe(304);
    expect(Number(later.headers.get("x-block-height"))).toBeGreaterThan(firstHeight);
    await transact(ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    const changed = await rawGet(url, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("answers unknown paths with 404 and an empty body, HEAD without a body", async () => {
    const missing = await fetch(`${service.apiUrl}/v1/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("");
    const head = await fetch(`${service.apiUrl}/v1/account/${ALICE}/full`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("answers another method on a route's path with 405 and Allow, not 404", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      for (const path of [`/v1/account/${ALICE}/full`, "/status", "/health"]) {
        const reply = await fetch(`${service.apiUrl}${path}`, { method, ...(method !== "DELETE" && { body: "{}" }) });
        expect(reply.status, `${method} ${path}`).toBe(405);
        expect(reply.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        expect(await reply.text()).toBe("");
      }
    }
    expect((await fetch(`${service.apiUrl}/v1/nope`, { method: "POST", body: "{}" })).status).toBe(404);
  });
});
