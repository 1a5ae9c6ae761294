import { describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { runCli, startServe, stop } from "./cliProcess.js";

// The dev genesis is deterministic by default (fixed genesis time), as Anvil's chain is, and
// `serve --print-accounts` lists the dev accounts for scripts.
async function genesisOf(args: string[]): Promise<{ hash: string; genesisTime: string }> {
  const server = await startServe(["--block-time", "0", ...args]);
  try {
    const hash = /genesis (\w+)/.exec(server.output().stdout)![1]!;
    const reply = await fetch(server.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "genesis_config", params: {} }),
    });
    const { result } = (await reply.json()) as { result: { genesis_time: string } };
    return { hash, genesisTime: result.genesis_time };
  } finally {
    expect(await stop(server)).toBe(0);
  }
}

async function cli(...args: string[]) {
  const proc = runCli(args);
  const code = await proc.exited;
  return { code, ...proc.output() };
}

describe("deterministic dev genesis", () => {
  it("the same flags give the same genesis hash; --genesis-time changes it", async () => {
    const first = await genesisOf([]);
    const second = await genesisOf([]);
    expect(second).toEqual(first);
    expect(first.genesisTime).toBe("2025-01-01T00:00:00Z");
    const other = await genesisOf(["--genesis-time", "2024-05-06T07:08:09.5Z"]);
    expect(other.hash).not.toBe(first.hash);
    expect(other.genesisTime).toBe("2024-05-06T07:08:09.500Z");
    expect((await genesisOf(["--shards", "2"])).hash).not.toBe(first.hash);
  }, 120_000);

  it.each([
    [["serve", "--genesis-time", "yesterday"], /--genesis-time must be an RFC 3339 time such as 2025-01-01T00:00:00Z, got "yesterday"/],
    [["serve", "--genesis-time", "2024-13-01T00:00:00Z"], /--genesis-time must be an RFC 3339 time/],
    [["serve", "--genesis", "g.json", "--genesis-time", "2024-01-01T00:00:00Z"], /--genesis-time sets the time of the dev genesis; a --genesis file has its own genesis_time/],
    [["serve", "--protocol-version", "88"], /--protocol-version must be an integer from 1 to 87, got "88"/],
  ])("%j is refused", async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});

describe("serve --print-accounts", () => {
  it("prints the dev accounts with their keys and balances as JSON and exits", async () => {
    const r = await cli("serve", "--print-accounts", "--ephemeral");
    expect(r.code).toBe(0);
    const accounts = JSON.parse(r.stdout) as { account_id: string; shard_id: number; public_key: string; secret_key: string; balance: string; balance_near: string }[];
    expect(accounts.map((a) => a.account_id)).toEqual(expect.arrayContaining(["test.near", "alice.test.near", "bob.test.near", "carol.test.near"]));
    const alice = accounts.find((a) => a.account_id === "alice.test.near")!;
    const key = devKeyPair("alice.test.near");
    expect(alice).toEqual({
      account_id: "alice.test.near",
      shard_id: 0,
      public_key: key.publicKeyString,
      secret_key: key.secretKeyString,
      balance: (10_000n * 10n ** 24n).toString(),
      balance_near: "10000",
    });
  });
});
