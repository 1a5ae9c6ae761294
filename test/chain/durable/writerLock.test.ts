import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WRITER_LOCK_DIR, WRITER_RECORD, lockDataDir } from "../../../src/chain/store/dataDirLock.js";
import { runCli, startServe, stop, type CliProcess } from "../../cli/cliProcess.js";

/*
 * One writer per data dir, with real processes: a second `serve` on the dir is refused while
 * the first runs, `state dump` reads beside it, and a writer killed with SIGKILL (or lingering
 * as a zombie) holds nothing: the kernel drops its lock, and the next writer takes over.
 */

const root = mkdtempSync(join(tmpdir(), "shardkit-lock-"));
const running: CliProcess[] = [];
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** The writer record in a data dir's lock (undefined when none). */
function recordedWriter(dir: string): { pid: number; command: string } | undefined {
  const path = join(dir, WRITER_LOCK_DIR, WRITER_RECORD);
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

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
    expect(recordedWriter(dir)).toMatchObject({ pid: first.child.pid, command: expect.stringMatching(/^shardkit serve .*--data-dir /) });
    // Let a few blocks become final.
    for (;;) {
      const block = await rpc(first.rpcUrl, "block", { finality: "final" });
      if (block.header.height >= 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const second = runCli(["serve", "--data-dir", dir, "--rpc-port", "0", "--archival-port", "0", "--api-port", "0"]);
    expect(await second.exited).toBe(1);
    expect(second.output().stderr).toContain(`data dir ${dir} is in use by process ${first.child.pid} (shardkit serve `);
    expect(second.output().stdout).not.toMatch(/regular RPC/);

    const out = join(root, "dump.json");
    const dump = runCli(["state", "dump", "--data-dir", dir, "--out", out]);
    expect(await dump.exited, dump.output().stderr).toBe(0);
    expect(statSync(out).size).toBeGreaterThan(0);
    // The first writer still works after both.
    const final = await rpc(first.rpcUrl, "block", { finality: "final" });

    first.child.kill("SIGKILL");
    await first.exited;
    expect((recordedWriter(dir))?.pid).toBe(first.child.pid); // stale: no live process vouches for it

    const third = await startServe(["--data-dir", dir, "--block-time", "100"]);
    running.push(third);
    const [, height] = /data dir\s+\S+\s+\(resumed at height (\d+)\)/.exec(third.output().stdout)!;
    expect(Number(height)).toBeGreaterThanOrEqual(final.header.height);
    const again = await rpc(third.rpcUrl, "block", { block_id: final.header.height });
    expect(again.header.hash).toBe(final.header.hash);
    expect(again.chunks.map((c: { prev_state_root: string }) => c.prev_state_root)).toEqual(final.chunks.map((c: { prev_state_root: string }) => c.prev_state_root));
    expect(await stop(third)).toBe(0);
    expect(recordedWriter(dir)).toBeUndefined();
  }, 120_000);

  it("a writer's lock holds while it runs and is dropped by the kernel when it dies, even as an unreaped zombie", async () => {
    const dir = join(root, "zombie");
    mkdirSync(dir, { recursive: true });
    // `sh` starts the holder in the background, prints its pid, then becomes `sleep`, which never
    // reaps it: killed, the holder stays a zombie.
    const holder = [process.execPath, "--conditions=shardkit-source", "--import", "tsx", join(import.meta.dirname, "fixtures", "holdDataDirLock.ts"), dir].map((a) => `'${a}'`).join(" ");
    const parent = spawn("sh", ["-c", `${holder} & echo $!; exec sleep 60`], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      let out = "";
      await new Promise<void>((resolve) => {
        parent.stdout!.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("locked")) resolve();
        });
      });
      const pid = Number.parseInt(out, 10);
      expect(() => lockDataDir(dir)).toThrow(`data dir ${dir} is in use by process ${pid} (shardkit ${dir}, since `);

      process.kill(pid, "SIGKILL");
      // A zombie once every thread has gone (the leader shows Z while the others still exit).
      const zombie = () => /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8")) && readdirSync(`/proc/${pid}/task`).length === 1;
      while (!zombie()) await new Promise((resolve) => setImmediate(resolve));
      const release = lockDataDir(dir); // the zombie still has its pid, and holds nothing
      expect(recordedWriter(dir)).toMatchObject({ pid: process.pid });
      // In this process too, the dir is held until released.
      expect(() => lockDataDir(dir)).toThrow(`data dir ${dir} is in use by process ${process.pid}`);
      release();
      expect(recordedWriter(dir)).toBeUndefined();
    } finally {
      parent.kill("SIGKILL");
    }
  }, 60_000);

  it("of writers starting at once, exactly one holds the dir and the others name it", async () => {
    const dir = join(root, "race");
    mkdirSync(dir, { recursive: true });
    const contenders = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--conditions=shardkit-source", "--import", "tsx", join(import.meta.dirname, "fixtures", "holdDataDirLock.ts"), dir], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const outcome = new Promise<"locked" | "refused">((resolve) => {
        child.stdout.once("data", () => resolve("locked"));
        child.once("exit", () => resolve("refused"));
      });
      return { child, outcome, stderr: () => stderr };
    });
    try {
      const outcomes = await Promise.all(contenders.map((c) => c.outcome));
      expect(outcomes.filter((o) => o === "locked")).toHaveLength(1);
      const winner = contenders[outcomes.indexOf("locked")]!.child.pid;
      for (const [i, c] of contenders.entries()) if (outcomes[i] === "refused") expect(c.stderr()).toContain(`data dir ${dir} is in use by process ${winner}`);
    } finally {
      for (const c of contenders) c.child.kill("SIGKILL");
    }
  }, 60_000);

  it("a record without a live writer is stale, whichever pid it names (a reused pid, a restarted container's pid 1)", async () => {
    const dir = join(root, "stale");
    mkdirSync(dir, { recursive: true });
    for (const pid of [process.ppid, process.pid, 1]) {
      mkdirSync(join(dir, WRITER_LOCK_DIR), { recursive: true });
      const stale = { token: "old", pid, host: hostname(), since: "2026-01-01T00:00:00.000Z", command: "shardkit serve" };
      writeFileSync(join(dir, WRITER_LOCK_DIR, WRITER_RECORD), JSON.stringify(stale));
      const release = lockDataDir(dir);
      expect((recordedWriter(dir))?.pid).toBe(process.pid);
      release();
    }
  });

  it("a dir named like a file (with a dot) is a data dir too", async () => {
    const dir = join(root, "chain.v2");
    const served = await startServe(["--data-dir", dir, "--block-time", "0"]);
    running.push(served);
    expect(served.output().stdout).toMatch(/\(new chain\)/);
    expect(existsSync(join(dir, "data.mdb"))).toBe(true);
    expect(await stop(served)).toBe(0);
  }, 60_000);
});
