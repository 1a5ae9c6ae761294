// `shardkit gateway` in front of a real `shardkit serve` (standing in for nearcore), all real
// processes: answers through the gateway are byte-for-byte the upstream's, bad requests get
// serve's own answers, transactions go through, the archival listener reaches the archival
// node, the REST listener reports the upstreams, the auth rules are serve's, and the
// contract-test suite passes against the gateway as against serve.

import { spawn, spawnSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateRestResponse } from "../../generated/rest/validators.js";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { encodeSignedTransaction, signTransaction, transactionHash, type Transaction } from "../../src/chain/transaction/index.js";
import { signerKeyPair } from "../../src/contract-test/signerKey.js";
import { cliNodeArgs, startServe, stop, waitFor, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { postRpc, rpcBody, startGatewayProcess, type GatewayUrls } from "./gatewayProcess.js";


let upstream: CliProcess & ServeUrls;
let gateway: CliProcess & GatewayUrls;
let signer: { accountId: string; secretKey: string };
let height: number;

async function result(url: string, method: string, params: unknown): Promise<any> {
  const reply = await postRpc(url, rpcBody(method, params));
  const envelope = JSON.parse(reply.text);
  if (envelope.error !== undefined) throw new Error(`${method}: ${reply.text}`);
  return envelope.result;
}

describe("shardkit gateway in front of shardkit serve", () => {
  beforeAll(async () => {
    upstream = await startServe(["--block-time", "50", "--retention", "60"]);
    // The dev accounts follow the listener lines startServe waits for: wait for them too.
    const [, , secret] = await waitFor(() => upstream.output().stdout, /test\.near\s+shard \d+\s+(ed25519:\S+)\s+(ed25519:\S+)/);
    signer = { accountId: "test.near", secretKey: secret! };
    gateway = await startGatewayProcess(["--upstream", upstream.rpcUrl, "--archival-upstream", upstream.archivalUrl, "--probe-interval", "200"]);
    // Past the regular listener's window, so the archival checks have an old block to ask for.
    for (;;) {
      height = (await result(upstream.rpcUrl, "block", { finality: "final" })).header.height;
      if (height > 65) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 90_000);
  afterAll(async () => {
    if (gateway) await stop(gateway);
    if (upstream) await stop(upstream);
  });

  it("answers every read byte-for-byte as the upstream does", async () => {
    const requests: [string, unknown][] = [
      ["block", { block_id: height }],
      ["block", [height]],
      ["chunk", { block_id: height, shard_id: 1 }],
      ["query", { request_type: "view_account", account_id: "test.near", block_id: height }],
      ["query", { request_type: "view_state", account_id: "ft.test.near", prefix_base64: "", block_id: height }],
      ["query", { request_type: "view_access_key_list", account_id: "test.near", block_id: height }],
      ["gas_price", [height]],
      ["EXPERIMENTAL_protocol_config", { block_id: height }],
      ["validators", [height]],
      // Handler errors pass through unchanged too.
      ["query", { request_type: "view_account", account_id: "nobody.test.near", block_id: height }],
      ["block", { block_id: 10 ** 9 }],
    ];
    for (const [method, params] of requests) {
      const body = rpcBody(method, params, `id-${method}`);
      const direct = await postRpc(upstream.rpcUrl, body);
      const through = await postRpc(gateway.rpcUrl, body);
      expect({ method, status: through.status, text: through.text }).toEqual({ method, status: direct.status, text: direct.text });
      expect(through.contentType).toBe("application/json");
    }
  });

  it("forwards status (JSON-RPC and GET /status) from the upstream", async () => {
    const direct = await result(upstream.rpcUrl, "status", []);
    const through = await result(gateway.rpcUrl, "status", []);
    expect(through.chain_id).toBe(direct.chain_id);
    expect(through.genesis_hash).toBe(direct.genesis_hash);
    expect(through.rpc_addr).toBe(direct.rpc_addr); // the upstream answered, not the gateway
    const get = await fetch(`${gateway.rpcUrl}/status`);
    expect(get.status).toBe(200);
    expect(((await get.json()) as any).genesis_hash).toBe(direct.genesis_hash);
  });

  it("answers bad requests exactly as serve does", async () => {
    const bad = [
      "{not json",
      "[]",
      JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "status", params: [] }]),
      JSON.stringify({ jsonrpc: "2.0", method: "status", params: [] }),
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "status", params: [], extra: 1 }),
      rpcBody("no_such_method", {}),
      rpcBody("block", { finality: "bogus" }),
      rpcBody("query", { request_type: "view_account", account_id: "Not Valid!", finality: "final" }),
      rpcBody("query", { request_type: "view_state", account_id: "ft.test.near", finality: "final" }),
      rpcBody("block", "[".repeat(100) + "]".repeat(100)),
      `{"jsonrpc":"2.0","id":1,"method":"status","params":${"[".repeat(100)}${"]".repeat(100)}}`,
    ];
    for (const body of bad) {
      const direct = await postRpc(upstream.rpcUrl, body);
      const through = await postRpc(gateway.rpcUrl, body);
      expect({ body, status: through.status, text: through.text }).toEqual({ body, status: direct.status, text: direct.text });
      expect(through.status).toBeGreaterThanOrEqual(200);
    }
  });

  it("sends a transaction and reads it back through the gateway", async () => {
    const keys = signerKeyPair(signer.secretKey);
    const key = await result(gateway.rpcUrl, "query", {
      request_type: "view_access_key",
      account_id: signer.accountId,
      public_key: keys.publicKeyString,
      finality: "optimistic",
    });
    const block = await result(gateway.rpcUrl, "block", { finality: "final" });
    const transaction: Transaction = {
      version: 0,
      signerId: signer.accountId,
      publicKey: keys.publicKey,
      nonce: BigInt(key.nonce) + 1n,
      receiverId: "alice.test.near",
      blockHash: base58Decode(block.header.hash),
      actions: [{ type: "Transfer", deposit: 7n }],
    };
    const signed = Buffer.from(encodeSignedTransaction(signTransaction(transaction, keys))).toString("base64");
    const hash = base58Encode(transactionHash(transaction));
    const sent = await result(gateway.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
    expect(sent.final_execution_status).toBe("FINAL");
    expect(sent.transaction.hash).toBe(hash);
    const body = rpcBody("tx", { tx_hash: hash, sender_account_id: signer.accountId, wait_until: "FINAL" });
    const direct = await postRpc(upstream.rpcUrl, body);
    const through = await postRpc(gateway.rpcUrl, body);
    expect(through.text).toBe(direct.text);
    expect(JSON.parse(through.text).result.status).toEqual({ SuccessValue: "" });
  });

  it("sends the archival listener to the archival upstream", async () => {
    const body = rpcBody("block", { block_id: 2 });
    const regular = await postRpc(gateway.rpcUrl, body);
    expect(JSON.parse(regular.text).error.cause.name).toMatch(/^(GARBAGE_COLLECTED_BLOCK|UNKNOWN_BLOCK)$/);
    expect(regular.text).toBe((await postRpc(upstream.rpcUrl, body)).text);
    const archival = await postRpc(gateway.archivalUrl, body);
    expect(archival.status).toBe(200);
    expect(archival.text).toBe((await postRpc(upstream.archivalUrl, body)).text);
  });

  it("reports the upstreams on the REST /status and /health, and refuses /v1 without an index", async () => {
    const status = (await (await fetch(`${gateway.apiUrl}/status`)).json()) as any;
    expect(status.gateway.upstreams).toEqual([
      { url: upstream.rpcUrl, up: true, last_error: null, latency_ms: expect.any(Number), head_height: expect.any(Number) },
    ]);
    expect(status.gateway.archival_upstreams).toEqual([expect.objectContaining({ url: upstream.archivalUrl, up: true })]);
    expect(status.gateway.index).toBeNull();
    expect(status.block_height).toBeGreaterThanOrEqual(height);
    expect(status.sync_block_height).toBeNull();
    const health = (await (await fetch(`${gateway.apiUrl}/health`)).json()) as any;
    expect(health.status).toBe("ok");
    expect(validateRestResponse("status", 200, status)).toEqual([]);
    expect(validateRestResponse("health", 200, health)).toEqual([]);
    const v1 = await fetch(`${gateway.apiUrl}/v1/account/test.near/full`);
    expect(v1.status).toBe(503);
    expect(v1.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await v1.text()).toMatch(/--index --postgres/);
    for (const path of ["/status", "/v1/account/test.near/full"]) {
      const post = await fetch(`${gateway.apiUrl}${path}`, { method: "POST", body: "{}" });
      expect(post.status, path).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
    expect((await fetch(`${gateway.apiUrl}/nope`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("keeps serve's auth rules: unknown keys 403 text, browser keys held to their origins, one rate cap across listeners", async () => {
    const dir = await mkdtemp(join(tmpdir(), "shardkit-gw-keys-"));
    const file = join(dir, "keys.json");
    const add = (...args: string[]) => {
      const run = spawnSync(process.execPath, [...cliNodeArgs, "keys", "add", "--file", file, ...args], { encoding: "utf8" });
      expect(run.status).toBe(0);
      return run.stdout.trimEnd().split("\n").at(-1)!;
    };
    const serverKey = add("--name", "backend", "--rate", "3");
    const browserKey = add("--name", "web", "--browser", "--origin", "https://app.example.com");
    const guarded = await startGatewayProcess(["--upstream", upstream.rpcUrl, "--keys", file, "--probe-interval", "0"]);
    try {
      const body = rpcBody("block", { block_id: height });
      const expected = (await postRpc(upstream.rpcUrl, body)).text;
      const unknown = await postRpc(guarded.rpcUrl, body, { authorization: "Bearer shk_not_a_key" });
      expect(unknown.status).toBe(403);
      expect(unknown.contentType).toMatch(/^text\/plain/);
      expect(unknown.text).toBe("Unknown API key");

      const noOrigin = await postRpc(guarded.rpcUrl, body, { authorization: `Bearer ${browserKey}` });
      expect(noOrigin.status).toBe(403);
      expect(JSON.parse(noOrigin.text)).toEqual({ error: "origin_not_allowed" });
      const fromApp = await postRpc(guarded.rpcUrl, body, { authorization: `Bearer ${browserKey}`, origin: "https://app.example.com" });
      expect(fromApp.status).toBe(200);
      expect(fromApp.text).toBe(expected);

      // A cap of 3 per minute counts requests on every listener: RPC, archival, then REST.
      expect((await postRpc(`${guarded.rpcUrl}/?apiKey=${serverKey}`, body)).text).toBe(expected);
      expect((await postRpc(guarded.archivalUrl, body, { authorization: `Bearer ${serverKey}` })).status).toBe(200);
      expect((await fetch(`${guarded.apiUrl}/status`, { headers: { authorization: `Bearer ${serverKey}` } })).status).toBe(200);
      const capped = await postRpc(guarded.rpcUrl, body, { authorization: `Bearer ${serverKey}` });
      expect(capped.status).toBe(429);
      expect(JSON.parse(capped.text)).toEqual({ error: "rate_limited" });
      const cappedRest = await fetch(`${guarded.apiUrl}/health`, { headers: { authorization: `Bearer ${serverKey}` } });
      expect(cappedRest.status).toBe(429);
      expect(Number(cappedRest.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await stop(guarded);
    }
  }, 60_000);

  it("passes shardkit contract-test as serve does", async () => {
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [...cliNodeArgs, "contract-test", "--rpc", gateway.rpcUrl, "--archival", gateway.archivalUrl, "--signer", `${signer.accountId}:${signer.secretKey}`],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
    const failures = run.stdout.split("\n").filter((line) => line.startsWith("FAIL"));
    expect(failures).toEqual([]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/PASS transactions\s+broadcast_tx_commit/);
    expect(run.stdout).toMatch(/PASS behaviour\s+retention: regular vs archival/);
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, /);
  }, 240_000);
});
