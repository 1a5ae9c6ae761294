/**
 * near-workspaces on `shardkit sandbox` (`npm run bench -- --only=workspaces`): near-workspaces
 * 5.0.0 (JS, from npm) starts the built CLI through the `shardkit sandbox-path` launcher.
 * - `Worker.init()` to ready (init, run, the first `final` block answered; near-workspaces polls
 *   every 250 ms), median of 20, against the start of a bare `node -e 0` in the same run;
 * - the wall time of test/sandbox/nearWorkspaces.test.ts with on-demand blocks against the same
 *   file at nearcore's 600 ms block time (SHARDKIT_SANDBOX_BLOCK_TIME_MS=600), which stands in
 *   for nearcore's sandbox (its binary cannot be downloaded here).
 */
import { execFileSync, spawnSync, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { writeSandboxLauncher } from "../src/cli/sandboxPathCommand.js";
import nearWorkspaces from "near-workspaces";
import { median } from "./measure.js";

interface Options {
  readonly quick: boolean;
  readonly root: string;
  readonly cli: string;
}

const exited = (child: ChildProcess) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once("exit", () => resolve())));

export async function workspacesBench(options: Options): Promise<void> {
  const launcher = writeSandboxLauncher(process.execPath, [options.cli]);
  process.env.NEAR_SANDBOX_BIN_PATH = launcher;
  process.env.NEAR_SANDBOX_BINARY_PATH = dirname(launcher);
  const { Worker } = nearWorkspaces;
  const samples = options.quick ? 5 : 20;

  const initMs: number[] = [];
  const nodeMs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const worker = await Worker.init();
    initMs.push(performance.now() - t0);
    const server = (worker as unknown as { server: { subprocess: ChildProcess } }).server.subprocess;
    await worker.tearDown();
    await exited(server);
    const n0 = performance.now();
    execFileSync(process.execPath, ["-e", "0"]);
    nodeMs.push(performance.now() - n0);
  }
  const init = median(initMs);
  const bare = median(nodeMs);
  console.log(`(w) near-workspaces Worker.init() to ready on shardkit sandbox: median ${init.toFixed(0)} ms of ${samples} (target <= 1000 ms; nearcore's sandbox takes seconds)`);
  console.log(`    a bare \`node -e 0\` start ${bare.toFixed(0)} ms in the same run: Worker.init() costs ${(init / bare).toFixed(1)}x a node start`);

  const testFile = (blockTimeMs: number) => {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [join(options.root, "node_modules", "vitest", "vitest.mjs"), "run", "test/sandbox/nearWorkspaces.test.ts", "--project", "main"], {
      cwd: options.root,
      encoding: "utf8",
      env: { ...process.env, SHARDKIT_SANDBOX_BLOCK_TIME_MS: String(blockTimeMs) },
    });
    if (run.status !== 0) throw new Error(`the near-workspaces test file failed at block time ${blockTimeMs}:\n${run.stdout}\n${run.stderr}`);
    return (performance.now() - t0) / 1000;
  };
  const onDemand = testFile(0);
  const nearcoreTiming = testFile(600);
  console.log(`    test/sandbox/nearWorkspaces.test.ts: ${onDemand.toFixed(1)} s with on-demand blocks, ${nearcoreTiming.toFixed(1)} s at nearcore's 600 ms block time: ${(nearcoreTiming / onDemand).toFixed(2)}x faster on demand`);
}
