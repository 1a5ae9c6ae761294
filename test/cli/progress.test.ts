import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hasScript, runCliOnTerminal, startServe, stop, waitFor } from "./cliProcess.js";

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

  it.skipIf(!hasScript)("is a self-updating line on a terminal, cleared before the banner", async () => {
    const server = runCliOnTerminal(["serve", "--ephemeral", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0", "--genesis", genesis]);
    await waitFor(() => server.output().stdout, /REST API\s+http/);
    expect(await stop(server)).toBe(0);
    const { stdout } = server.output();
    const drawn = stdout.indexOf(`\r\x1b[2Kshardkit: loading genesis ${genesis} (0.0 MB) … 0.0 s`);
    const banner = stdout.indexOf("shardkit: chain progress-test");
    expect(drawn).toBeGreaterThanOrEqual(0);
    expect(banner).toBeGreaterThan(drawn);
    expect(stdout.slice(drawn, banner)).toMatch(/\r\x1b\[2K$/);
  });
});
