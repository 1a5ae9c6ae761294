import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOCK_FILE } from "../../../src/chain/store/dataDirLock.js";
import { runCli, startServe, stop, type CliProcess } from "../../cli/cliProcess.js";

/*
 * One writer per data dir, with real processes: a second `serve` on the dir is refused while
 * the first runs, `state dump` reads beside it, and a writer killed with SIGKILL leaves a
 * stale lock that the next `serve` takes over (resuming the chain).
 */

const root = mkdtempSync(join(tmpdir(), "shardkit-lock-"));
const running: CliProcess[] = [];
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

async function rpc(url: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}

describe("a data dir has one writer", () => {
  it("refuses a second serve, lets state dump read, and is taken over after the writer is killed", async () => {
    const dir = join(root, "chain");
    const first = await startServe(["--data-dir", dir, "--block-time", "100"]);
    running.push(first);
    expect(first.output().stdout).toMatch(new RegExp(`data dir\\s+${dir.replace(/[/.]/g, "\\$&")}\\s+\\(new chain\\)`));
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").trim()).toBe(String(first.child.pid));
    // Let a few blocks become final.
    for (;;) {
      const block = await rpc(first.rpcUrl, "block", { finality: "final" });
      if (block.header.height >= 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const second = runCli(["serve", "--data-dir", dir, "--rpc-port", "0", "--archival-port", "0", "--api-port", "0"]);
    expect(await second.exited).toBe(1);
    expect(second.output().stderr).toContain(`data dir ${dir} is in use by process ${first.child.pid}`);
    expect(second.output().stdout).not.toMatch(/regular RPC/);

    const out = join(root, "dump.json");
    const dump = runCli(["state", "dump", "--data-dir", dir, "--out", out]);
    expect(await dump.exited, dump.output().stderr).toBe(0);
    expect(statSync(out).size).toBeGreaterThan(0);
    // The first writer still works after both.
    const final = await rpc(first.rpcUrl, "block", { finality: "final" });

    first.child.kill("SIGKILL");
    await first.exited;
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true); // stale: its pid is gone

    const third = await startServe(["--data-dir", dir, "--block-time", "100"]);
    running.push(third);
    const [, height] = /data dir\s+\S+\s+\(resumed at height (\d+)\)/.exec(third.output().stdout)!;
    expect(Number(height)).toBeGreaterThanOrEqual(final.header.height);
    const again = await rpc(third.rpcUrl, "block", { block_id: final.header.height });
    expect(again.header.hash).toBe(final.header.hash);
    expect(again.chunks.map((c: { prev_state_root: string }) => c.prev_state_root)).toEqual(final.chunks.map((c: { prev_state_root: string }) => c.prev_state_root));
    expect(await stop(third)).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 120_000);
});
