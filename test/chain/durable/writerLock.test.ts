import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOCK_FILE, lockDataDir } from "../../../src/chain/store/dataDirLock.js";
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
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").trim()).toMatch(new RegExp(`^${first.child.pid} \\d+$`));
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

  it("a lock whose pid is a zombie or was reused by another process is stale; a live writer's is not", async () => {
    const dir = join(root, "stale");
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, LOCK_FILE);
    const ours = readFileSync("/proc/self/stat", "utf8");
    const ourStart = ours.slice(ours.lastIndexOf(")") + 2).split(" ")[19]!;

    // A live writer (this process, with its start time): refused.
    writeFileSync(lock, `${process.pid} ${ourStart}\n`);
    expect(() => lockDataDir(dir)).toThrow(`data dir ${dir} is in use by process ${process.pid}`);

    // The same live pid with another start time: the writer died and its pid was reused.
    writeFileSync(lock, `${process.pid} ${Number(ourStart) + 1}\n`);
    let release = lockDataDir(dir);
    expect(readFileSync(lock, "utf8").trim()).toBe(`${process.pid} ${ourStart}`);
    release();

    // A zombie: `sh` backgrounds a `head` that waits for a byte on fd 3, then becomes `sleep 30`,
    // which never reaps. The byte is sent once `sleep` runs, so `sh` cannot reap the child first.
    const parent = spawn("sh", ["-c", "head -c1 <&3 >/dev/null & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore", "pipe"] });
    try {
      const zombie = Number((await new Promise<Buffer>((resolve) => parent.stdout!.once("data", resolve))).toString().trim());
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      while (!readFileSync(`/proc/${parent.pid}/cmdline`, "latin1").startsWith("sleep")) await turn();
      (parent.stdio[3] as NodeJS.WritableStream).write("x");
      const state = () => readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1]!.split(" ")[0];
      while (state() !== "Z") await turn();
      writeFileSync(lock, `${zombie}\n`);
      release = lockDataDir(dir);
      expect(readFileSync(lock, "utf8").trim()).toBe(`${process.pid} ${ourStart}`);
      release();
      expect(existsSync(lock)).toBe(false);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
