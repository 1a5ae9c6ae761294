import { spawnSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { encodeSignedTransaction, signTransaction } from "../../src/chain/transaction/index.js";
import { cliNodeArgs, hasScript, repoRoot, runCliOnTerminal, startServe, stop, waitFor, type CliProcess, type ServeUrls } from "./cliProcess.js";

interface LogRecord {
  time: string;
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** The log records among stdout's lines (the start-up lines before them are plain text). */
function records(stdout: string): LogRecord[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogRecord);
}

async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const reply = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await reply.text();
  return { status: reply.status, body: (reply.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : { text }) as { result?: any; error?: any } };
}

describe("serve --log-level debug (stdout not a TTY: JSON lines)", () => {
  let server: CliProcess & ServeUrls;
  let apiKey: string;

  beforeAll(async () => {
    const keysFile = join(await mkdtemp(join(tmpdir(), "shardkit-logs-")), "keys.json");
    const added = spawnSync(process.execPath, [...cliNodeArgs, "keys", "add", "--file", keysFile, "--name", "ci"], {
      encoding: "utf8",
    });
    apiKey = added.stdout.trim().split("\n").at(-1)!;
    expect(apiKey).toMatch(/^shk_/);
    server = await startServe(["--block-time", "0", "--keys", keysFile, "--log-level", "debug"]);
  });
  afterAll(async () => {
    if (server) await stop(server);
  });

  it("starts with a record of the listeners", async () => {
    // startServe returns at the listener lines; the record follows them on the same pipe.
    await waitFor(() => server.output().stdout, /"msg":"serving"/);
    const [first] = records(server.output().stdout);
    expect(first).toMatchObject({ level: "info", msg: "serving", chain_id: "localnet", shards: 4, rpc_url: server.rpcUrl, archival_url: server.archivalUrl, api_url: server.apiUrl });
  });

  it("writes one line per request with method, status and duration, and never the API key", async () => {
    expect((await rpc(server.rpcUrl, "status", [], { authorization: `Bearer ${apiKey}` })).status).toBe(200);
    expect((await rpc(`${server.rpcUrl}/?apiKey=${apiKey}`, "gas_price", [null])).status).toBe(200);
    expect((await rpc(`${server.archivalUrl}/?apiKey=${apiKey}-wrong`, "status", [])).status).toBe(403);
    const missing = await rpc(server.rpcUrl, "query", { request_type: "view_account", finality: "final", account_id: "nobody.test.near" }, { authorization: `Bearer ${apiKey}` });
    expect(missing.body.error.cause.name).toBe("UNKNOWN_ACCOUNT");
    expect((await fetch(`${server.apiUrl}/v1/account/alice.test.near/full?apiKey=${apiKey}`)).status).toBe(200);

    await waitFor(() => server.output().stdout, /"listener":"rest"/);
    const requests = records(server.output().stdout).filter((r) => r.msg === "request");
    expect(requests.map((r) => [r.listener, r.rpc_method ?? r.path, r.status, r.rpc_error])).toEqual([
      ["rpc", "status", 200, undefined],
      ["rpc", "gas_price", 200, undefined],
      ["archival", "/", 403, undefined],
      ["rpc", "query", 200, "UNKNOWN_ACCOUNT"],
      ["rest", "/v1/account/alice.test.near/full", 200, undefined],
    ]);
    for (const r of requests) {
      expect(r.level).toBe("debug");
      expect(typeof r.duration_ms).toBe("number");
      expect(r.duration_ms as number).toBeGreaterThanOrEqual(0);
      expect(Date.parse(r.time)).not.toBeNaN();
    }
    const everything = server.output().stdout + server.output().stderr;
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toContain(apiKey.slice(4, 20));
    expect(everything).not.toContain("apiKey");
  });

  it("logs each transaction and receipt outcome at info, with its actions, status and gas", async () => {
    const alice = devKeyPair("alice.test.near");
    const headers = { authorization: `Bearer ${apiKey}` };
    const key = await rpc(server.rpcUrl, "query", { request_type: "view_access_key", finality: "optimistic", account_id: "alice.test.near", public_key: alice.publicKeyString }, headers);
    const head = await rpc(server.rpcUrl, "block", { finality: "optimistic" }, headers);
    const transfer = (receiverId: string, nonce: bigint) =>
      Buffer.from(
        encodeSignedTransaction(
          signTransaction(
            { version: 0, signerId: "alice.test.near", publicKey: alice.publicKey, nonce, receiverId, blockHash: base58Decode(head.body.result.header.hash), actions: [{ type: "Transfer", deposit: 10n ** 24n }] },
            alice,
          ),
        ),
      ).toString("base64");
    const nonce = BigInt(key.body.result.nonce);
    const ok = await rpc(server.rpcUrl, "send_tx", { signed_tx_base64: transfer("bob.test.near", nonce + 1n), wait_until: "FINAL" }, headers);
    expect(ok.body.result.status).toHaveProperty("SuccessValue");
    const failed = await rpc(server.rpcUrl, "send_tx", { signed_tx_base64: transfer("ghost.test.near", nonce + 2n), wait_until: "FINAL" }, headers);
    expect(failed.body.result.status).toHaveProperty("Failure");

    await waitFor(() => server.output().stdout, /"msg":"receipt".*"receiver_id":"ghost\.test\.near"/);
    const receipts = records(server.output().stdout).filter((r) => r.msg === "receipt");
    const toBob = receipts.find((r) => r.receiver_id === "bob.test.near")!;
    expect(toBob).toMatchObject({ level: "info", predecessor_id: "alice.test.near", actions: ["Transfer"], status: "success" });
    expect(toBob.gas_burnt).toBeGreaterThan(0);
    expect(toBob.receipt_id).toBe(ok.body.result.transaction_outcome.outcome.receipt_ids[0]);
    const toGhost = receipts.find((r) => r.receiver_id === "ghost.test.near")!;
    expect(toGhost).toMatchObject({ status: "failure" });
    expect(toGhost.error).toContain("AccountDoesNotExist");
    const transactions = records(server.output().stdout).filter((r) => r.msg === "transaction");
    expect(transactions.map((r) => [r.tx_hash, r.signer_id, r.receiver_id, r.nonce, r.actions, r.status, r.receipt_id])).toEqual([
      [ok.body.result.transaction.hash, "alice.test.near", "bob.test.near", String(nonce + 1n), ["Transfer"], "success", toBob.receipt_id],
      [failed.body.result.transaction.hash, "alice.test.near", "ghost.test.near", String(nonce + 2n), ["Transfer"], "success", toGhost.receipt_id],
    ]);
    expect(transactions[0]).toMatchObject({ level: "info", gas_burnt: ok.body.result.transaction_outcome.outcome.gas_burnt });
    // Gas refunds from `system` are debug lines of their own.
    expect(records(server.output().stdout).some((r) => r.msg === "refund" && r.level === "debug" && r.predecessor_id === "system")).toBe(true);
  });
});

describe("serve --log-level warn", () => {
  it("writes no request or receipt lines", async () => {
    const server = await startServe(["--block-time", "0", "--log-level", "warn"]);
    try {
      expect((await rpc(server.rpcUrl, "status", [])).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(records(server.output().stdout)).toEqual([]);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });
});

describe.skipIf(!hasScript)("serve on a terminal", () => {
  it("writes readable log lines instead of JSON", async () => {
    const server = runCliOnTerminal(["serve", "--ephemeral", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "50", "--log-level", "debug"]);
    await waitFor(() => server.output().stdout, / DEBUG block height=\d+ /);
    expect(await stop(server)).toBe(0);
    const lines = server.output().stdout.split(/\r?\n/);
    const blockLines = lines.filter((line) => / DEBUG block height=\d+ hash=\w+ receipts=0$/.test(line));
    expect(blockLines.length).toBeGreaterThan(0);
    expect(blockLines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} DEBUG block /);
    expect(lines.some((line) => line.startsWith("{"))).toBe(false);
  });
});
