// @shardkit/client in a real browser: the package sources bundled for the browser with esbuild,
// loaded by headless Chromium (Debian's) from a page on its own origin, calling a real
// `shardkit serve` with a browser key held to that origin (CORS preflight included): a
// view_state page, then a transfer signed in the page and sent with sendAndWait, then REST.

import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { repoRoot, runCli, startServe, stop, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { hasChromium, launchChromium, type LaunchedChromium } from "../support/chromium.js";
import { jsonRpcClient } from "../../packages/client/src/jsonrpc/index.js";

let pageServer: Server;
let origin: string;
let server: CliProcess & ServeUrls;
let browser: LaunchedChromium;
let apiKey: string;
let scratch: string;

async function listen(handler: Parameters<typeof createServer>[1]): Promise<[Server, string]> {
  const s = createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const address = s.address();
  if (typeof address !== "object" || address === null) throw new Error("no address");
  return [s, `http://127.0.0.1:${address.port}`];
}

beforeAll(async () => {
  if (!hasChromium) throw new Error("Chromium is missing: apt-get install -y chromium (.ci/run does it), or set CHROMIUM_PATH");
  const bundle = await build({
    entryPoints: [join(repoRoot, "test", "client", "browser", "page.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0]!.text;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>client</title><link rel="icon" href="data:,"><script type="module" src="/client.js"></script></head><body></body></html>`;
  [pageServer, origin] = await listen((req, res) => {
    if (req.url === "/client.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    else if (req.url === "/") res.writeHead(200, { "content-type": "text/html" }).end(html);
    else res.writeHead(404).end();
  });
  // A browser key for the page's origin only.
  scratch = mkdtempSync(join(tmpdir(), "shardkit-browser-keys-"));
  const keysFile = join(scratch, "keys.json");
  const add = runCli(["keys", "add", "--file", keysFile, "--name", "page", "--browser", "--origin", origin]);
  expect(await add.exited).toBe(0);
  apiKey = add.output().stdout.trim().split("\n").at(-1)!.trim();
  server = await startServe(["--block-time", "100", "--log-level", "warn", "--keys", keysFile]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server) await stop(server);
  pageServer?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("@shardkit/client in headless Chromium", () => {
  it("reads view_state pages, signs and sends a transfer, reads REST, with no console error", async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => typeof (globalThis as { runClient?: unknown }).runClient === "function");
    const rpc = jsonRpcClient({ url: server.rpcUrl });
    const before = BigInt((await rpc.query({ request_type: "view_account", finality: "final", account_id: "bob.test.near" })).amount);

    const input = { rpcUrl: server.rpcUrl, apiUrl: server.apiUrl, apiKey, secretKey: devKeyPair("alice.test.near").secretKeyString };
    const result = await page.evaluate(
      (arg) => (globalThis as unknown as { runClient: (i: typeof arg) => Promise<any> }).runClient(arg),
      input,
    );
    expect(result.userAgent).toMatch(/HeadlessChrome|Chrome/);
    expect(result.firstPage.count).toBe(50);
    expect(typeof result.firstPage.lastKey).toBe("string");
    expect(result.secondPage).toMatchObject({ count: 50 });
    expect(result.secondPage.blockHash).toBe(result.secondPage.firstBlockHash);
    expect(result.outcome).toMatchObject({ final: "FINAL", status: { SuccessValue: "" } });
    expect(result.restAccount).toBe("bob.test.near");
    expect(problems).toEqual([]);

    // The node saw the transfer the page signed.
    const tx = await rpc.tx({ tx_hash: result.outcome.hash, sender_account_id: "alice.test.near", wait_until: "FINAL" });
    expect("transaction" in tx && tx.transaction.signer_id).toBe("alice.test.near");
    const after = BigInt((await rpc.query({ request_type: "view_account", finality: "final", account_id: "bob.test.near" })).amount);
    expect(after - before).toBe(7n);
  });

  it("the browser key is refused from another origin (the page's requests carried the real Origin)", async () => {
    const reply = await fetch(server.rpcUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, origin: "https://elsewhere.example", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "status", params: [] }),
    });
    expect(reply.status).toBe(403);
  });
});
