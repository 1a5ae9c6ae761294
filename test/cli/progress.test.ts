import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeSyntheticGenesis } from "../../src/chain/genesis/writeSyntheticGenesis.js";
import { hasScript, runCliOnTerminal, startServe, stop, waitFor } from "./cliProcess.js";

let genesis: string;
beforeAll(async () => {
  genesis = join(await mkdtemp(join(tmpdir(), "shardkit-progress-")), "genesis.json");
  const account = { amount: "1000", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 };
  await writeFile(genesis, JSON.stringify({ chain_id: "progress-test", records: [{ Account: { account_id: "alice.near", account } }] }));
});

describe("genesis loading progress", () => {
  it("is not drawn into a pipe for a quick load; the banner says what was loaded and how long it took", async () => {
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

  it.skipIf(!hasScript)("names each phase of a load into a data dir: reading records, building the tries, writing trie nodes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "shardkit-progress-disk-"));
    const big = join(dir, "genesis.json");
    await writeSyntheticGenesis(big, { keys: 20_000, accountId: "big.test.near" });
    const server = runCliOnTerminal(["serve", "--data-dir", join(dir, "data"), "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0", "--genesis", big]);
    await waitFor(() => server.output().stdout, /REST API\s+http/);
    expect(await stop(server)).toBe(0);
    // Each redraw is one frame after "\r\x1b[2K"; the load's frames say what it is doing after the label.
    const label = `shardkit: loading genesis ${big} (`;
    const frames = server
      .output()
      .stdout.split("\r\x1b[2K")
      .filter((frame) => frame.startsWith(label))
      .map((frame) => frame.slice(frame.indexOf("): ") + 3));
    const phases = [/^reading records, \d+% \([\d,]+\) … \d+\.\d s$/, /^building the tries, [\d,]+ of 20,004 entries … \d+\.\d s$/, /^writing trie nodes, \d+ of 256 buckets \([\d,]+ nodes\) … \d+\.\d s$/];
    const firstOf = phases.map((phase) => frames.findIndex((frame) => phase.test(frame)));
    expect(firstOf.every((i) => i >= 0), JSON.stringify(frames)).toBe(true);
    expect([...firstOf].sort((x, y) => x - y)).toEqual(firstOf);
  }, 60_000);
});

describe("REST index catch-up on a resumed chain", () => {
  it("is reported in the banner in a pipe and drawn as a progress line on a terminal", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "shardkit-progress-resume-"));
    const first = await startServe(["--data-dir", dataDir, "--block-time", "20"]);
    const status = async () => ((await (await fetch(first.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "status", params: [] }) })).json()) as { result: { sync_info: { latest_block_height: number } } }).result;
    const genesisHeight = (await status()).sync_info.latest_block_height;
    while ((await status()).sync_info.latest_block_height < genesisHeight + 10) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await stop(first)).toBe(0);
    // The REST index is kept in the data dir: without it, a restart indexes every block again.
    const dropIndex = () => rm(join(dataDir, "rest-index"), { recursive: true, force: true });
    await dropIndex();

    const piped = await startServe(["--data-dir", dataDir, "--block-time", "0"]);
    expect(await stop(piped)).toBe(0);
    const [, blocks] = /\(account data, indexed from every block; (\d+) blocks indexed in \d+\.\d s\)$/m.exec(piped.output().stdout) ?? [];
    expect(Number(blocks)).toBeGreaterThanOrEqual(10);
    expect(piped.output().stdout + piped.output().stderr).not.toContain("\r");

    if (!hasScript) return;
    await dropIndex();
    const onTerminal = runCliOnTerminal(["serve", "--data-dir", dataDir, "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0"]);
    await waitFor(() => onTerminal.output().stdout, /REST API\s+http/);
    expect(await stop(onTerminal)).toBe(0);
    expect(onTerminal.output().stdout).toMatch(new RegExp(`\\r\\x1b\\[2Kshardkit: indexing blocks for the REST API, \\d+ of \\d+ … \\d+\\.\\d s\\r\\x1b\\[2K`));
  });
});
