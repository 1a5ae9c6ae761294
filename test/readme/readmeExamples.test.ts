import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { cliNodeArgs, repoRoot, startServe, stop, waitFor, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { actions, jsonRpcClient, keyPairFromString, transactionSender } from "../../packages/client/src/jsonrpc/index.js";
import { blockRunners, docBlock, docBlocks, where, type CodeBlock } from "./codeBlocks.js";

const run = promisify(execFile);
const blocks = docBlocks();

// The examples of the README and the guides (docs/*.md) as written, run against a real
// `shardkit serve`: only the default ports (taken on a shared machine) and the placeholders for
// "a key you hold" (`<base58>`) and "a transaction you sent" (`<hash>`) are replaced.
let server: CliProcess & ServeUrls;
let scratch: string;

function asWritten(code: string): string {
  const alice = devKeyPair("alice.test.near").publicKeyString.slice("ed25519:".length);
  return code
    .replaceAll("http://127.0.0.1:3030", server.rpcUrl)
    .replaceAll("http://127.0.0.1:3031", server.archivalUrl)
    .replaceAll("http://127.0.0.1:3040", server.apiUrl)
    .replaceAll("<base58>", alice);
}

beforeAll(async () => {
  server = await startServe(["--block-time", "100"]);
  // Inside the package, so `shardkit/client` resolves through package.json "exports" as for a user.
  scratch = await mkdtemp(join(repoRoot, "test", "readme", ".tmp-"));
});

afterAll(async () => {
  if (server) expect(await stop(server)).toBe(0);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs a TypeScript block as a module (tsx, as `node --import tsx example.ts` would) from the repository root. */
async function runTs(block: CodeBlock, suffix = "", replace: (code: string) => string = (code) => code): Promise<string> {
  const file = join(scratch, `example-line-${block.line}.ts`);
  await writeFile(file, `${replace(asWritten(block.code))}\n${suffix}`);
  const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, timeout: 30_000 });
  return stdout;
}

/** Runs a block of curl commands with bash; each curl must succeed and print one JSON document. */
async function runCurls(block: CodeBlock): Promise<unknown[]> {
  const wrapper = 'set -e\ncurl() { command curl --silent --show-error --fail-with-body --max-time 10 "$@"; echo; }\n';
  const { stdout } = await run("bash", ["-c", wrapper + asWritten(block.code)], { timeout: 30_000 });
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}

describe("README and guide examples", () => {
  it("finds the examples it is meant to run, in the README and in the guides", () => {
    const curls = blocks.filter(blockRunners.curl.claims);
    expect(curls.filter((b) => b.file === "README.md").length).toBeGreaterThanOrEqual(3);
    expect(curls.filter((b) => b.file.startsWith("docs/")).length).toBeGreaterThanOrEqual(2);
  });

  it("the start-up banner shown in the README matches what serve prints", async () => {
    // The listeners' lines come first (the server is up then); the accounts may still be on their way.
    await waitFor(() => server.output().stdout, /\n  alice\.test\.near .*\n/);
    const block = docBlock((b) => b.file === "README.md" && b.lang === "text" && b.code.startsWith("shardkit: chain"));
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = asWritten(block.code)
      .split("\n")
      .map((line) =>
        line.trim() === "..."
          ? "(?:.*\\n)*?"
          : `${escape(line)
              .replace(escape("<hash>"), "\\w+")
              .replace(escape("<data dir>  (new chain)"), ".+")
              .replaceAll(escape("ed25519:..."), "ed25519:\\w+")
              .replace(/\d{4,}(?= NEAR)/, "\\d+")}\\n`,
      )
      .join("");
    expect(server.output().stdout).toMatch(new RegExp(`^${pattern}`));
  });

  it("the shardkit/client example runs and reports the unknown account", async () => {
    const block = docBlock(blockRunners.shardkitClient.claims);
    const stdout = await runTs(block);
    const [accountLine] = stdout.trim().split("\n");
    const account = JSON.parse(accountLine!.slice("alice.test.near: ".length)) as { amount: string; locked: string };
    expect(BigInt(account.amount)).toBeGreaterThan(0n);
    expect(account.locked).toBe("0");
    expect(stdout).toMatch(/^unknown account: [\s\S]*requested_account_id: 'nobody\.test\.near'/m);
  });

  it("the openapi-fetch REST example runs", async () => {
    const block = docBlock(blockRunners.openapiFetch.claims);
    const stdout = await runTs(block, "console.log(JSON.stringify(data));");
    const data = JSON.parse(stdout) as { account_id: string; state: { balance: string } };
    expect(data.account_id).toBe("alice.test.near");
    expect(BigInt(data.state.balance)).toBeGreaterThan(0n);
  });

  it("the shardkit keys block runs (its last line, serve --keys, as a start that is stopped)", async () => {
    const block = docBlock(blockRunners.keysFile.claims);
    const [serveLine, ...others] = block.code.split("\n").filter((line) => line.startsWith("shardkit serve")).concat(["end"]);
    expect(others).toEqual(["end"]);
    const keysOnly = block.code.split("\n").filter((line) => !line.startsWith("shardkit serve")).join("\n");
    const cwd = await mkdtemp(join(scratch, "keys-"));
    const shim = `set -e\nshardkit() { ${[process.execPath, ...cliNodeArgs].map((arg) => JSON.stringify(arg)).join(" ")} "$@"; }\n`;
    const { stdout } = await run("bash", ["-c", shim + keysOnly], { cwd, timeout: 60_000 });
    expect(stdout).toMatch(/added server key "ci"/);
    expect(stdout).toMatch(/added browser key "web"/);
    expect(stdout).toMatch(/^web {2}browser {2}rate 600\/min {2}origins https:\/\/app\.example\.com, \*\.example\.com$/m);
    expect(stdout).toMatch(/rotated key "ci"/);
    expect(stdout).toMatch(/revoked key "ci"/);
    // The serve line as written, on free ports, comes up with the file it names.
    const served = await startServe([...serveLine!.replace(/#.*/, "").trim().split(/\s+/).slice(2), "--block-time", "0"], { cwd });
    expect(await stop(served)).toBe(0);
  }, 90_000); // six CLI runs through tsx: ~24 s on a loaded 2-core machine

  it("the near-api-js example reads alice's balance and the FT supply, and sends a transfer", async () => {
    const block = docBlock(blockRunners.nearApiJs.claims);
    const secret = devKeyPair("alice.test.near").secretKeyString;
    const stdout = await runTs(block, "", (code) => code.replaceAll("ed25519:<alice secret key>", secret));
    expect(stdout).toMatch(/^alice\.test\.near available: \d{25,}$/m);
    expect(stdout).toMatch(/^test\.near holds: \d+$/m);
    expect(stdout).toMatch(/^transfer: \{"SuccessValue":""\}$/m);
  }, 60_000);

  it("the light-client example follows the chain from genesis and verifies a transaction it sent", async () => {
    const block = docBlock(blockRunners.lightClient.claims);
    expect(block.code).toContain("<hash>");
    const rpc = jsonRpcClient({ url: server.rpcUrl });
    const alice = transactionSender({ rpc, signerId: "alice.test.near", signer: keyPairFromString(devKeyPair("alice.test.near").secretKeyString) });
    const sent = await alice.sendAndWait("bob.test.near", [actions.transfer(1n)], { waitUntil: "FINAL" });
    // The proof needs a final light-client head past the block that carries the last outcome root.
    const heightOf = async (params: object): Promise<number> => {
      const response = await fetch(server.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "block", params }) });
      return ((await response.json()) as { result: { header: { height: number } } }).result.header.height;
    };
    const lastOutcome = Math.max(...(await Promise.all([sent.transaction_outcome, ...sent.receipts_outcome].map((o) => heightOf({ block_id: o.block_hash })))));
    while ((await heightOf({ finality: "final" })) < lastOutcome + 2);
    const stdout = await runTs(block, 'console.log("head:", client.headHash);', (code) => code.replaceAll("<hash>", sent.transaction.hash));
    expect(stdout).toMatch(/^head: \w{43,44}$/m);
  }, 90_000);

  it.each(blocks.filter(blockRunners.curl.claims).map((b) => [where(b), b] as const))("the curl block at %s runs", async (_where, block) => {
    const answers = await runCurls(block);
    const curls = block.code.match(/(^|;\s*)curl\s/gm)?.length ?? 0;
    expect(answers).toHaveLength(curls);
    for (const answer of answers) {
      if (typeof answer === "object" && answer !== null && "jsonrpc" in answer) {
        expect(answer).toHaveProperty("result");
        expect(answer).not.toHaveProperty("error");
      }
    }
  });
});
