import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot, startServe, stop, waitFor, type CliProcess } from "../../cli/cliProcess.js";

/*
 * A data dir that cannot take a write: `serve` says why on one line and exits with code 1,
 * without a stack trace, and what it had committed is intact for the next start.
 * - Disk full: the file size limit (RLIMIT_FSIZE, `ulimit -f`) makes the store's writes fail as
 *   on a full disk (EFBIG instead of ENOSPC, which LMDB may report as an I/O error; SIGXFSZ
 *   ignored so the write returns the error instead of killing the process).
 * - Read-only: an existing chain's data dir made read-only. Root ignores file modes, so as
 *   root the server runs as uid 65534 (nobody) when that user can read the repo; otherwise the
 *   read-only case is taken by a file size limit of 0 (nothing can be written at all).
 */

const base = mkdtempSync(join(tmpdir(), "shardkit-unwritable-"));
chmodSync(base, 0o755); // reachable by the unprivileged user of the read-only case
afterAll(() => rmSync(base, { recursive: true, force: true }));

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const nobodyCanRun =
  isRoot && spawnSync(process.execPath, [...cliNodeArgs, "--version"], { cwd: repoRoot, uid: NOBODY, gid: NOBODY, env: process.env }).status === 0;

const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** `shardkit serve ARGS` under a file size limit (KiB), through bash (pinned: CI has no SHELL). */
function serveLimited(limitKiB: number, args: string[]): CliProcess {
  const command = ["exec", process.execPath, ...cliNodeArgs, "serve", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", ...args]
    .map(shellQuote)
    .join(" ");
  const child = spawn("/bin/bash", ["-c", `trap '' XFSZ; ulimit -f ${limitKiB}; ${command}`], { stdio: ["ignore", "pipe", "pipe"], env: process.env, cwd: repoRoot });
  return track(child);
}

function serveAs(uid: number, args: string[]): CliProcess {
  const child = spawn(process.execPath, [...cliNodeArgs, "serve", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
    cwd: repoRoot,
    uid,
    gid: uid,
  });
  return track(child);
}

function track(child: ReturnType<typeof spawn>): CliProcess {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/**
 * The refusal: one `shardkit: ...` line on stderr and no stack frames. (LMDB's native code
 * may print its own "Write error: ..." note first, without a line break.)
 */
function expectClearError(stderr: string, pattern: RegExp): void {
  expect(stderr).toMatch(pattern);
  expect(stderr).not.toMatch(/^\s+at /m);
  // LMDB's C library may print its own "Write error: ..." first (no newline of its own): ours is a line apart.
  const lines = stderr.trim().split("\n");
  expect(lines.filter((line) => !line.startsWith("Write error: "))).toHaveLength(1);
  expect(lines.at(-1)).toMatch(/^shardkit: /);
}

describe("a data dir that cannot take a write", () => {
  it("disk full while producing: one clear line, exit code 1, the committed chain resumes", async () => {
    const dir = join(base, "full");
    const proc = serveLimited(1024, ["--data-dir", dir, "--block-time", "5"]);
    await waitFor(() => proc.output().stdout, /regular RPC\s+http/);
    expect(await proc.exited).toBe(1);
    expectClearError(proc.output().stderr, /shardkit: block production stopped: cannot write data dir .*full: (File too large|Input\/output error)/);
    // Without the limit the chain resumes at the last committed block.
    const again = await startServe(["--data-dir", dir, "--block-time", "0"]);
    try {
      const [, height] = await waitFor(() => again.output().stdout, /resumed at height (\d+)/);
      expect(Number(height)).toBeGreaterThan(0);
    } finally {
      expect(await stop(again)).toBe(0);
    }
  });

  it("disk full during sandbox_fast_forward: the request fails, one clear line, exit code 1, the committed chain resumes", async () => {
    const dir = join(base, "full-ff");
    const proc = serveLimited(1024, ["--data-dir", dir, "--block-time", "0"]);
    const [, url] = await waitFor(() => proc.output().stdout, /regular RPC\s+(http\S+)/);
    // Each fast-forward turn commits unflushed and then syncs off the event loop; the 1 MiB limit stops it within it.
    const answer = await fetch(url!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sandbox_fast_forward", params: { delta_height: 100_000 } }),
    }).then(
      (response) => response.json() as Promise<{ result?: unknown; error?: unknown }>,
      (): { result?: unknown; error?: unknown } => ({ error: "connection closed" }),
    );
    expect(answer.result).toBeUndefined();
    expect(await proc.exited).toBe(1);
    expectClearError(proc.output().stderr, /shardkit: block production stopped: cannot write data dir .*full-ff: (File too large|Input\/output error)/);
    const again = await startServe(["--data-dir", dir, "--block-time", "0"]);
    try {
      const [, height] = await waitFor(() => again.output().stdout, /resumed at height (\d+)/);
      expect(Number(height)).toBeGreaterThan(0);
    } finally {
      expect(await stop(again)).toBe(0);
    }
  });

  it("read-only data dir of an existing chain: one clear line, exit code 1", async () => {
    const dir = join(base, "readonly");
    const first = await startServe(["--data-dir", dir, "--block-time", "0"]);
    expect(await stop(first)).toBe(0);
    for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o444);
    chmodSync(dir, 0o555);
    try {
      const args = ["--data-dir", dir, "--block-time", "0"];
      const proc = !isRoot ? serveAs(process.getuid!(), args) : nobodyCanRun ? serveAs(NOBODY, args) : serveLimited(0, args);
      expect(await proc.exited).toBe(1);
      expectClearError(proc.output().stderr, /shardkit: .*data dir .*readonly.*(permission denied|EACCES|File too large|read-only)/i);
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});
