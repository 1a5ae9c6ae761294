import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { runCli as run, waitFor } from "./cliProcess.js";

describe("shardkit serve", () => {
  it("prints listeners and dev keys, serves JSON-RPC, produces blocks and shuts down on SIGTERM", async () => {
    const { child, exited, output } = run(["serve", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "100", "--ephemeral"]);
    const [, rpcUrl] = await waitFor(() => output().stdout, /regular RPC\s+(http:\/\/\S+)/);
    await waitFor(() => output().stdout, /carol\.test\.near/);
    const alice = devKeyPair("alice.test.near");
    expect(output().stdout).toContain(`alice.test.near    shard 0  ${alice.publicKeyString}  ${alice.secretKeyString}  10000 NEAR\n`);
    expect(output().stdout).toMatch(/archival RPC\s+http:\/\/127\.0\.0\.1:\d+/);
    const [, apiUrl] = await waitFor(() => output().stdout, /REST API\s+(http:\/\/\S+)\/v1/);
    const full = (await (await fetch(`${apiUrl}/v1/account/alice.test.near/full`)).json()) as { account_id: string; state: unknown };
    expect(full.account_id).toBe("alice.test.near");
    expect(full.state).not.toBeNull();

    const height = async () => {
      const reply = await fetch(rpcUrl!, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "status", params: [] }) });
      return ((await reply.json()) as { result: { sync_info: { latest_block_height: number } } }).result.sync_info.latest_block_height;
    };
    const first = await height();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await height()).toBeGreaterThan(first);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output().stdout).toContain("SIGTERM, shutting down");
  });

  it("keeps a genesis file's own shard layout unless --shards is given", async () => {
    const dir = await mkdtemp(join(tmpdir(), "shardkit-cli-"));
    const genesis = join(dir, "genesis.json");
    const account = { amount: "1000", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 };
    await writeFile(
      genesis,
      JSON.stringify({
        chain_id: "layout-test",
        shard_layout: { V2: { boundary_accounts: ["m"], shard_ids: [3, 7], id_to_index_map: { "3": 0, "7": 1 }, version: 3 } },
        records: [{ Account: { account_id: "alice.near", account } }, { Account: { account_id: "zed.near", account } }],
      }),
    );
    const { child, exited, output } = run(["serve", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0", "--genesis", genesis, "--ephemeral"]);
    const [, rpcUrl] = await waitFor(() => output().stdout, /regular RPC\s+(http:\/\/\S+)/);
    expect(output().stdout).toContain("chain layout-test, 2 shards");
    const reply = await fetch(rpcUrl!, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "block", params: { finality: "final" } }) });
    const block = (await reply.json()) as { result: { chunks: { shard_id: number }[] } };
    expect(block.result.chunks.map((c) => c.shard_id)).toEqual([3, 7]);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });

  it.each([
    [["serve", "--retention", "2"], /--retention must be an integer from 3/],
    [["serve", "--shards", "27"], /--shards must be an integer from 1 to 26/],
    [["serve", "--tx-timeout", "0"], /--tx-timeout must be an integer from 1 to 600000/],
    [["serve", "--rpc-port", "99999"], /--rpc-port must be an integer from 0 to 65535/],
    [["serve", "--no-such-flag"], /unknown option --no-such-flag for serve/],
    [["serve", "--genesis", "/nonexistent/genesis.json", "--ephemeral"], /nonexistent/],
    [["serve", "--ephemeral", "--data-dir", "d"], /--ephemeral and --data-dir exclude each other/],
    [["serve", "--data-dir", "/dev/null/chain"], /cannot open data dir \/dev\/null\/chain/],
    [["serve", "--api-port", "70000"], /--api-port must be an integer from 0 to 65535/],
    [["serve", "--public-rate", "0"], /--public-rate must be an integer from 1/],
    [["serve", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--ephemeral", "--keys", "/nonexistent/keys.json"], /cannot read keys file \/nonexistent\/keys\.json: ENOENT/],
    [["frobnicate"], /unknown command "frobnicate"/],
  ])("refuses %j with a clear message and exit code 1", async (args, message) => {
    const { exited, output } = run(args);
    expect(await exited).toBe(1);
    expect(output().stderr).toMatch(message);
  });

  it("prints its options for serve --help", async () => {
    const { exited, output } = run(["serve", "--help"]);
    expect(await exited).toBe(0);
    expect(output().stdout).toContain("Usage: shardkit serve [options]");
    expect(output().stdout).toContain("--retention");
  });
});
