import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type Service } from "../../src/server/startService.js";
import { startFaultyProxy } from "./faultyProxy.js";
import { cliNodeArgs } from "../cli/cliProcess.js";


/** Runs the CLI in a child process (asynchronously: the service under test lives in this one). */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliNodeArgs, "contract-test", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

let service: Service;

describe("shardkit contract-test (CLI)", () => {
  beforeAll(async () => {
    service = await startService({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, apiPort: 0, retention: 60, chain: { blockTimeMs: 50 } });
    while (service.chain.head().height < 65) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(() => service?.close());

  it("exits 0 against shardkit serve, prints a plain line per check and writes a JUnit report", async () => {
    const dir = await mkdtemp(join(tmpdir(), "shardkit-ctest-cli-"));
    const junitFile = join(dir, "report.xml");
    // --api as serve's banner prints it, with /v1 (the route checks must not request /v1/v1/...).
    const run = await runCli(["--rpc", service.rpcUrl, "--archival", service.archivalUrl, "--api", `${service.apiUrl!}/v1/`, "--report", "junit", junitFile]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
    expect(lines).toContain("PASS behaviour    view_state paging [shardkit-only]");
    expect(lines.filter((line) => / rest GET \/v1\//.test(line)).length).toBeGreaterThan(5);
    expect(lines.every((line, i) => i === lines.length - 1 || /^(PASS|SKIP) /.test(line))).toBe(true);
    const junit = await readFile(junitFile, "utf8");
    expect(junit).toMatch(/^<\?xml/);
    expect(junit.match(/<testcase /g)?.length).toBe(lines.length - 1);
  }, 120_000);

  it("exits 1 on a faulty server and prints a curl line that reproduces the failure", async () => {
    const proxy = await startFaultyProxy(service.rpcUrl, {
      reply(request, reply) {
        if (request.json?.method === "status" && reply.json?.result) delete reply.json.result.chain_id;
      },
    });
    try {
      const run = await runCli(["--rpc", proxy.url]);
      expect(run.status).toBe(1);
      const lines = run.stdout.split("\n");
      const failIndex = lines.findIndex((line) => line.startsWith("FAIL conformance  rpc status status"));
      expect(failIndex).toBeGreaterThanOrEqual(0);
      expect(lines[failIndex + 1]).toMatch(/chain_id/);
      const curl = lines[failIndex + 2]!.trim();
      expect(curl).toMatch(/^curl -sS -i -X POST /);
      // The curl line, run by a shell, gets the same faulty answer.
      const { stdout } = await promisify(execFile)("sh", ["-c", curl]);
      expect(stdout).toMatch(/^HTTP\/1\.1 200/);
      expect(stdout).toContain('"sync_info"');
      expect(stdout).not.toContain('"chain_id"');
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("refuses bad arguments with a clear message", async () => {
    const noRpc = await runCli([]);
    expect(noRpc.status).toBe(1);
    expect(noRpc.stderr).toMatch(/contract-test needs --rpc URL/);
    const badUrl = await runCli(["--rpc", "localhost:3030"]);
    expect(badUrl.stderr).toMatch(/--rpc must be an http\(s\) URL/);
    const badReport = await runCli(["--rpc", service.rpcUrl, "--report", "html", "x"]);
    expect(badReport.stderr).toMatch(/--report junit FILE/);
    const badSigner = await runCli(["--rpc", service.rpcUrl, "--signer", "nocolon"]);
    expect(badSigner.stderr).toMatch(/--signer must be ACCOUNT:SECRET_KEY/);
  }, 60_000);

  it("reports an unreachable target as failures, not a crash", async () => {
    const run = await runCli(["--rpc", "http://127.0.0.1:9", "--timeout-ms", "2000"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^FAIL conformance  discover the target/m);
    expect(run.stdout).toMatch(/request failed/);
  }, 60_000);
});
