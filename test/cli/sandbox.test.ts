import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SANDBOX_INIT_BALANCE, SANDBOX_INIT_STAKE, keyFromSeedString } from "../../src/chain/genesis/sandboxGenesis.js";
import { cliNodeArgs, runCli, waitFor } from "./cliProcess.js";

const cli = (args: string[]) => spawnSync(process.execPath, [...cliNodeArgs, ...args], { encoding: "utf8" });
const home = async () => join(await mkdtemp(join(tmpdir(), "shardkit-sandbox-")), "home");
const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as Record<string, any>;
const rpc = async (url: string, method: string, params: unknown) =>
  ((await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as { result: any }).result;

/** A port nothing listens on (bound and released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("shardkit sandbox", () => {
  it("init writes nearcore's localnet files: validator_key.json for test.near, a minimal genesis, a fresh key each time", async () => {
    const [a, b] = [await home(), await home()];
    expect(cli(["sandbox", "--home", a, "init"]).status).toBe(0);
    expect(cli(["sandbox", "init", "--home", b, "--fast", "--num-shards", "3"]).status).toBe(0);
    const keyA = await readJson(join(a, "validator_key.json"));
    const keyB = await readJson(join(b, "validator_key.json"));
    expect(Object.keys(keyA).sort()).toEqual(["account_id", "public_key", "secret_key"]);
    expect(keyA.account_id).toBe("test.near");
    expect(keyA.public_key).toMatch(/^ed25519:/);
    expect(keyA.secret_key).toMatch(/^ed25519:/);
    expect(keyB.public_key).not.toBe(keyA.public_key);
    expect((await readJson(join(a, "node_key.json"))).account_id).toBe("node");
    expect(await readJson(join(a, "config.json"))).toMatchObject({ rpc: { addr: "0.0.0.0:3030" } });

    const genesis = await readJson(join(a, "genesis.json"));
    expect(genesis.epoch_length).toBe(500);
    expect(genesis.chain_id).toMatch(/^test-chain-[A-Za-z0-9]{5}$/);
    expect(genesis.shard_layout).toEqual({ V0: { num_shards: 1, version: 0 } });
    expect(genesis.validators).toEqual([{ account_id: "test.near", public_key: keyA.public_key, amount: SANDBOX_INIT_STAKE.toString() }]);
    const account = (amount: bigint, locked: bigint) => ({ amount: amount.toString(), locked: locked.toString(), code_hash: "11111111111111111111111111111111", storage_usage: 0, version: "V1" });
    const fullAccess = { nonce: 0, permission: "FullAccess" };
    expect(genesis.records).toEqual([
      { Account: { account_id: "test.near", account: account(SANDBOX_INIT_BALANCE, SANDBOX_INIT_STAKE) } },
      { AccessKey: { account_id: "test.near", public_key: keyA.public_key, access_key: fullAccess } },
      { Account: { account_id: "near", account: account(SANDBOX_INIT_BALANCE, 0n) } },
      { AccessKey: { account_id: "near", public_key: keyFromSeedString("near").publicKeyString, access_key: fullAccess } },
    ]);
    const fast = await readJson(join(b, "genesis.json"));
    expect(fast.epoch_length).toBe(60);
    expect(fast.shard_layout.V1.boundary_accounts).toEqual(["shard1.test.near", "shard2.test.near"]);

    // As nearcore: a home that holds config.json and genesis.json is kept, keys and all.
    const again = cli(["sandbox", "--home", a, "init"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("kept as they are");
    expect(await readJson(join(a, "validator_key.json"))).toEqual(keyA);
    const seeded = await home();
    expect(cli(["sandbox", "--home", seeded, "init", "--test-seed", "alice.near"]).status).toBe(0);
    expect((await readJson(join(seeded, "validator_key.json"))).public_key).toBe(keyFromSeedString("alice.near").publicKeyString);
  });

  it("keys near with nearcore's seed rule (the seed's bytes padded with spaces)", () => {
    // InMemorySigner::from_seed("near"): ed25519 secret = "near" + 28 spaces.
    const padded = Buffer.from("near".padEnd(32, " "));
    expect(keyFromSeedString("near").secretKeyString).toBe(keyFromSeedString(padded.toString()).secretKeyString);
  });

  it("the sandbox-path launcher runs init and run from an empty environment; run serves the chain on --rpc-addr until SIGINT", async () => {
    const printed = cli(["sandbox-path"]);
    expect(printed.status, printed.stderr).toBe(0);
    const launcher = printed.stdout.trim();
    expect(launcher).toMatch(/\/near-sandbox$/);
    const dir = await home();
    const init = spawnSync(launcher, ["--home", dir, "init", "--fast"], { encoding: "utf8", env: {} });
    expect(init.status, init.stderr).toBe(0);
    const run = spawn(launcher, ["--home", dir, "run", "--rpc-addr", "127.0.0.1:0", "--network-addr", "0.0.0.0:0"], { env: {}, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    run.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    run.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => run.once("exit", resolve));
    try {
      const [, url] = await waitFor(() => out, /on (http:\/\/127\.0\.0\.1:\d+)/);
      const final = await rpc(url!, "block", { finality: "final" });
      expect(final.header.height).toBe(0);
      const key = await readJson(join(dir, "validator_key.json"));
      const view = await rpc(url!, "query", { request_type: "view_access_key", finality: "final", account_id: "test.near", public_key: key.public_key });
      expect(view.permission).toBe("FullAccess");
      expect((await rpc(url!, "EXPERIMENTAL_protocol_config", { finality: "final" })).epoch_length).toBe(60);
      // A --fast home's fast-forward moves the clock by the mean of nearcore's fast block delays, (120 + 500) / 2 ms a block.
      const before = await rpc(url!, "block", { finality: "optimistic" });
      await rpc(url!, "sandbox_fast_forward", { delta_height: 10 });
      const after = await rpc(url!, "block", { finality: "optimistic" });
      expect(after.header.height - before.header.height).toBeGreaterThanOrEqual(10);
      expect(BigInt(after.header.timestamp_nanosec) - BigInt(before.header.timestamp_nanosec)).toBeGreaterThanOrEqual(10n * 310n * 1_000_000n);
      expect(BigInt(after.header.timestamp_nanosec) - BigInt(before.header.timestamp_nanosec)).toBeLessThan(10n * 1300n * 1_000_000n);
    } finally {
      run.kill("SIGINT");
    }
    expect(await exited).toBe(0);
  });

  it("run binds --rpc-addr before the chain is up: a request that connects early is held and answered 200 once the chain serves", async () => {
    const dir = await home();
    expect(cli(["sandbox", "--home", dir, "init"]).status).toBe(0);
    const port = await freePort();
    const run = runCli(["sandbox", "--home", dir, "run", "--rpc-addr", `127.0.0.1:${port}`]);
    try {
      // Retried only while nothing listens: the first request that connects gets the readiness answer near-workspaces polls for.
      let answer: Response | undefined;
      while (answer === undefined) {
        answer = await fetch(`http://127.0.0.1:${port}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "block", params: { finality: "final" } }),
        }).catch((error: Error & { cause?: { code?: string } }) => {
          if (error.cause?.code !== "ECONNREFUSED" || run.child.exitCode !== null) throw error;
          return undefined;
        });
      }
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { result: { header: { height: number } } }).result.header.height).toBe(0);
    } finally {
      run.child.kill("SIGINT");
    }
    expect(await run.exited).toBe(0);
  });

  it("run on a taken --rpc-addr says so and exits 1", async () => {
    const dir = await home();
    expect(cli(["sandbox", "--home", dir, "init"]).status).toBe(0);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const result = cli(["sandbox", "--home", dir, "run", "--rpc-addr", `127.0.0.1:${port}`]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`cannot listen on --rpc-addr 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      taken.close();
    }
  });

  it.each([
    [["sandbox"], /needs a subcommand: init or run/],
    [["sandbox", "--home", "/tmp/x", "start"], /unknown sandbox subcommand "start"/],
    [["sandbox", "init", "--num-shards", "0"], /--num-shards must be an integer from 1 to 26/],
    [["sandbox", "init", "--rpc-addr", "1.2.3.4:5"], /--rpc-addr is an option of `sandbox run`/],
    [["sandbox", "--home", "/nonexistent-shardkit-home", "run"], /has no genesis\.json; run `shardkit sandbox --home/],
    [["sandbox-path", "x"], /sandbox-path takes no arguments/],
  ])("refuses %j", (args, message) => {
    const result = cli(args);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
