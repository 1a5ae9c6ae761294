import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatJunit, runContractTests, type ContractTestReport } from "../../src/contract-test/index.js";
import { startService, type Service } from "../../src/server/startService.js";

let service: Service;
let report: ContractTestReport;
const API_KEY = "contract-test-ci-key";

const outcomeOf = (name: string) => report.results.find((r) => r.name === name)?.outcome;

describe("shardkit contract-test against a real `shardkit serve`", () => {
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "shardkit-ctest-"));
    const keysFile = join(dir, "keys.json");
    await writeFile(keysFile, JSON.stringify({ keys: [{ key: API_KEY, name: "ci" }] }));
    service = await startService({
      host: "127.0.0.1",
      rpcPort: 0,
      archivalPort: 0,
      apiPort: 0,
      retention: 60,
      keysFile,
      chain: { blockTimeMs: 50 },
    });
    // Enough blocks that the genesis block is outside the regular listener's window (60 blocks, 3 s: long
    // enough that a block a check pins stays readable while the machine is busy).
    while (service.chain.head().height < 65) await new Promise((resolve) => setTimeout(resolve, 50));
    const alice = service.chain.devAccounts.find((a) => a.accountId === "alice.test.near")!;
    report = await runContractTests({
      rpcUrl: service.rpcUrl,
      archivalUrl: service.archivalUrl,
      apiUrl: service.apiUrl!,
      apiKey: API_KEY,
      signer: { accountId: alice.accountId, secretKey: alice.secretKey },
      timeoutMs: 20_000,
    });
  }, 120_000);
  afterAll(() => service?.close());

  it("passes every check", () => {
    const failures = report.results.filter((r) => r.outcome === "fail").map((r) => `${r.name}: ${r.message}\n  ${r.curl}`);
    expect(failures).toEqual([]);
    expect(report.passed).toBeGreaterThan(250);
  });

  it("runs every group, and every behaviour, auth and transaction check (none skipped)", () => {
    expect(new Set(report.results.map((r) => r.group))).toEqual(new Set(["conformance", "behaviour", "negative", "auth", "transactions"]));
    const mustRun = report.results.filter((r) => r.group === "behaviour" || r.group === "auth" || r.group === "transactions");
    expect(mustRun.filter((r) => r.outcome !== "pass").map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    for (const name of [
      "finality ordering: final <= near-final <= optimistic",
      "view_state paging",
      "view_state proof verifies against the state root",
      "retention: regular vs archival",
      "send_tx wait_until FINAL",
      "broadcast_tx_async then tx",
      "InvalidTxError: a used nonce",
      "api: unknown key (Bearer) gets 403 text/plain",
    ]) {
      expect(outcomeOf(name), name).toBe("pass");
    }
  });

  it("covers every spec'd method and route, skipping only the write examples and the foreign signed transaction", () => {
    const skipped = report.results.filter((r) => r.outcome === "skip").map((r) => r.name);
    expect(skipped.every((name) => /^rpc (send_tx|broadcast_tx_async|broadcast_tx_commit|tx tx_by_signed_transaction)\b/.test(name))).toBe(true);
    expect(outcomeOf("rpc EXPERIMENTAL_receipt receipt_refund")).toBe("pass");
    expect(outcomeOf("rest GET /v1/account/{account_id}/full")).toBe("pass");
    expect(report.results.filter((r) => r.group === "negative").length).toBeGreaterThan(50);
  });

  it("marks the checks that rely on shardkit's fixture contract", () => {
    expect(report.results.find((r) => r.name === "view_state paging")?.shardkitOnly).toBe(true);
    expect(report.results.find((r) => r.name === "finality ordering: final <= near-final <= optimistic")?.shardkitOnly).toBe(false);
  });

  it("writes a JUnit report with one testcase per check", () => {
    const junit = formatJunit(report);
    expect(junit.match(/<testcase /g)).toHaveLength(report.results.length);
    expect(junit).toContain(`failures="0"`);
  });
});
