import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot, startServe, stop } from "./cliProcess.js";

let genesis: string;
beforeAll(async () => {
  genesis = join(await mkdtemp(join(tmpdir(), "shardkit-progress-")), "genesis.json");
  const account = { amount: "1000", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 };
  await writeFile(genesis, JSON.stringify({ chain_id: "progress-test", records: [{ Account: { account_id: "alice.near", account } }] }));
});

describe("genesis loading progress", () => {
  it("is not drawn into a pipe; the banner says what was loaded and how long it took", async () => {
    const server = await startServe(["--block-time", "0", "--genesis", genesis]);
    expect(await stop(server)).toBe(0);
    expect(server.output().stdout).toMatch(new RegExp(`^shardkit: chain progress-test, 4 shards, genesis \\w+ \\(loaded from ${genesis.replaceAll(".", "\\.")} in \\d+\\.\\d s\\)$`, "m"));
    expect(server.output().stderr).not.toContain("loading genesis");
    expect(server.output().stdout + server.output().stderr).not.toContain("\r");
  });

  const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
  it.skipIf(!hasScript)("is a self-updating line on a terminal, cleared before the banner", () => {
    const cli = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(join(repoRoot, "src/cli/main.ts"))}`;
    const command = `${cli} serve --ephemeral --rpc-port 0 --archival-port 0 --api-port 0 --block-time 0 --genesis ${JSON.stringify(genesis)} & sleep 4; kill -TERM %1; wait`;
    const run = spawnSync("script", ["-qfec", command, "/dev/null"], { encoding: "utf8", cwd: repoRoot, timeout: 30_000 });
    const drawn = run.stdout.indexOf(`\r\x1b[2Kshardkit: loading genesis ${genesis} (0.0 MB) … 0.0 s`);
    const banner = run.stdout.indexOf("shardkit: chain progress-test");
    expect(drawn).toBeGreaterThanOrEqual(0);
    expect(banner).toBeGreaterThan(drawn);
    expect(run.stdout.slice(drawn, banner)).toMatch(/\r\x1b\[2K$/);
  });
});
