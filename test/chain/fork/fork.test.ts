import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chain } from "../../../src/chain/node.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { fixtureContractCode } from "../../../src/chain/genesis/fixtureContractCode.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { runCli, stop, type CliProcess, type ServeUrls } from "../../cli/cliProcess.js";
import { startGatewayProcess } from "../../gateway/gatewayProcess.js";
import { contractDataTrieKey } from "../../../src/chain/store/trieKeys.js";
import { keyOf, settle, submit } from "../runtime/helpers.js";
import { BIG, BIG_ENTRIES, HOLDER, HOLDER_TOKENS, NEAR, OWNER, TOKEN, TOKEN_SUPPLY, bigEntry, rpcResult, sendWithDevKey, startUpstream } from "./upstreamGenesis.js";

let dir: string;
let upstream: CliProcess & ServeUrls;
/** The fork block: the upstream's final block when the suite starts. */
let forkHeight: number;

const call = rpcResult;
const upstreamTx = (signerId: string, receiverId: string, actions: Action[]) => sendWithDevKey(upstream.archivalUrl, signerId, receiverId, actions);

const viewAccount = (url: string, accountId: string, block: number | string) =>
  call(url, "query", { request_type: "view_account", account_id: accountId, block_id: block });

const args = (json: unknown) => new TextEncoder().encode(JSON.stringify(json));
function ftBalance(chain: Chain, accountId: string): string {
  const outcome = chain.at(chain.head()).callFunction(TOKEN, "ft_balance_of", args({ account_id: accountId }));
  if (!outcome.ok) throw new Error(outcome.message);
  return JSON.parse(new TextDecoder().decode(outcome.result)) as string;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shardkit-fork-"));
  ({ upstream, finalHeight: forkHeight } = await startUpstream(dir));
}, 120_000);

afterAll(async () => {
  if (upstream !== undefined) await stop(upstream);
  rmSync(dir, { recursive: true, force: true });
});

describe("a fork of an upstream chain", () => {
  let chain: Chain;
  beforeAll(async () => {
    chain = await Chain.open({ fork: { url: upstream.archivalUrl, block: forkHeight }, blockTimeMs: 0 });
  });
  afterAll(async () => chain?.close());

  it("continues from the fork block: its height, hash, chain id and protocol version", async () => {
    const forkBlock = await call(upstream.archivalUrl, "block", { block_id: forkHeight });
    expect(chain.genesisBlock.height).toBe(forkHeight);
    expect(chain.genesisBlock.hash).toBe(forkBlock.header.hash);
    expect(chain.chainId).toBe("upstream-test");
    // The upstream's genesis runs protocol 85: the fork keeps its rules rather than shardkit's default.
    expect(forkBlock.header.latest_protocol_version).toBe(85);
    expect(chain.protocolVersion).toBe(85);
    const first = chain.produceBlock();
    expect(first.height).toBe(forkHeight + 1);
    expect(first.view.header.prev_hash).toBe(forkBlock.header.hash);
  });

  it("reads accounts, keys, code and contract state as the upstream's at the fork block, while the upstream moves on", async () => {
    const before = await viewAccount(upstream.archivalUrl, OWNER, forkHeight);
    await upstreamTx(OWNER, HOLDER, [{ type: "Transfer", deposit: 5n * NEAR }]);
    const view = chain.at(chain.head());
    expect(view.account(OWNER)?.amount.toString()).toBe(before.amount);
    expect(view.account(OWNER)?.storageUsage).toBe(before.storage_usage);
    expect(view.account("nobody.near")).toBeUndefined();
    expect(view.accessKey(HOLDER, devKeyPair(`${HOLDER}#2`).publicKeyString)?.permission).toBe("FullAccess");
    expect(view.accessKeys(HOLDER).map((k) => k.publicKey).sort()).toEqual([devKeyPair(HOLDER).publicKeyString, devKeyPair(`${HOLDER}#2`).publicKeyString].sort());
    const upstreamCode = await call(upstream.archivalUrl, "query", { request_type: "view_code", account_id: TOKEN, block_id: forkHeight });
    expect(Buffer.from(view.code(TOKEN)!).toString("base64")).toBe(upstreamCode.code_base64);
    expect(ftBalance(chain, HOLDER)).toBe(HOLDER_TOKENS.toString());
  });

  it("reads a key an upstream account does not have as absent (nearcore's query answers it as a legacy error-as-result)", () => {
    expect(chain.at(chain.head()).accessKey(OWNER, devKeyPair("nobody.near").publicKeyString)).toBeUndefined();
    expect(chain.at(chain.head()).accessKey(OWNER, devKeyPair(OWNER).publicKeyString)?.permission).toBe("FullAccess");
  });

  it("pages through a 100,000-entry contract as the upstream does, fetching only the pages it reaches", async () => {
    const view = chain.at(chain.head());
    view.account(BIG);
    const before = chain.upstreamState!.calls;
    const page = view.contractState(BIG, { prefix: new Uint8Array(0), limit: 3 });
    expect(chain.upstreamState!.calls - before).toBe(1);
    expect(page.values.map((v) => Buffer.from(v.value).toString())).toEqual(["v0", "v1", "v2"]);
    const middle = view.contractState(BIG, { prefix: new Uint8Array(0), afterKey: bigEntry(49_999).key, limit: 2 });
    expect(middle.values.map((v) => Buffer.from(v.value).toString())).toEqual(["v50000", "v50001"]);
    let count = 0;
    let after: Uint8Array | undefined;
    for (;;) {
      const next = view.contractState(BIG, { prefix: new Uint8Array(0), limit: 10_000, ...(after && { afterKey: after }) });
      count += next.values.length;
      if (next.lastKey === undefined) break;
      after = next.lastKey;
    }
    expect(count).toBe(BIG_ENTRIES);
    // Single keys and cursors inside pages read before are answered from them.
    const calls = chain.upstreamState!.calls;
    const shard = view.shard(chain.shardLayout.shardIds[chain.shardLayout.shardIndexOf(BIG)]!);
    expect(shard.get(contractDataTrieKey(BIG, bigEntry(77_777).key))).toBe("v77777");
    expect(shard.get(contractDataTrieKey(BIG, Buffer.from("k\0\0\0")))).toBeUndefined();
    expect(view.contractState(BIG, { prefix: new Uint8Array(0), afterKey: bigEntry(12_345).key, limit: 2 }).values.map((v) => Buffer.from(v.value).toString())).toEqual(["v12346", "v12347"]);
    expect(chain.upstreamState!.calls).toBe(calls);
  });

  it("runs transactions of upstream accounts on top: ft_transfer with its event, balances and refunds", () => {
    const reg = settle(chain, submit(chain, OWNER, TOKEN, [{ type: "FunctionCall", methodName: "storage_deposit", args: args({ account_id: "alice.test.near" }), gas: 30n * 10n ** 12n, deposit: NEAR / 100n }]));
    expect(reg.outcome!.status).toHaveProperty("SuccessValue");
    const amount = 7n * 10n ** 18n;
    const s = settle(chain, submit(chain, HOLDER, TOKEN, [{ type: "FunctionCall", methodName: "ft_transfer", args: args({ receiver_id: "alice.test.near", amount: amount.toString() }), gas: 30n * 10n ** 12n, deposit: 1n }]));
    expect(s.outcome!.status).toHaveProperty("SuccessValue");
    const logs = s.outcome!.receipts_outcome.flatMap((o) => o.outcome.logs);
    expect(logs.some((l) => l.includes('"event":"ft_transfer"') && l.includes(HOLDER))).toBe(true);
    expect(ftBalance(chain, HOLDER)).toBe((HOLDER_TOKENS - amount).toString());
    expect(ftBalance(chain, "alice.test.near")).toBe(amount.toString());
    expect(ftBalance(chain, OWNER)).toBe((TOKEN_SUPPLY - HOLDER_TOKENS).toString());
  });

  it("deletes upstream keys locally: the deletion shadows the upstream", () => {
    const second = devKeyPair(`${HOLDER}#2`);
    const s = settle(chain, submit(chain, HOLDER, HOLDER, [{ type: "DeleteKey", publicKey: second.publicKey }]));
    expect(s.outcome!.status).toHaveProperty("SuccessValue");
    const view = chain.at(chain.head());
    expect(view.accessKey(HOLDER, second.publicKeyString)).toBeUndefined();
    expect(view.accessKeys(HOLDER).map((k) => k.publicKey)).toEqual([devKeyPair(HOLDER).publicKeyString]);
    // The block before the transaction's still has it.
    const txHeight = chain.blockByHash(s.outcome!.transaction_outcome.block_hash)!.height;
    expect(chain.at(chain.blockByHeight(txHeight - 1)!).accessKey(HOLDER, second.publicKeyString)).toBeDefined();
  });

  it("adds a key to an upstream account (impersonation) and signs with it", () => {
    const mine = keyOf("impersonator");
    chain.producer.stage([{ type: "accessKey", accountId: OWNER, publicKey: mine.publicKeyString, accessKey: { nonce: 0n, permission: "FullAccess" } }]);
    chain.produceBlock();
    const s = settle(chain, submit(chain, OWNER, "bob.test.near", [{ type: "Transfer", deposit: NEAR }], { key: mine }));
    expect(s.outcome!.status).toHaveProperty("SuccessValue");
    // An ft_transfer between the two upstream holders, signed with the patched key.
    const before = { owner: BigInt(ftBalance(chain, OWNER)), holder: BigInt(ftBalance(chain, HOLDER)) };
    const ft = settle(chain, submit(chain, OWNER, TOKEN, [{ type: "FunctionCall", methodName: "ft_transfer", args: args({ receiver_id: HOLDER, amount: "42" }), gas: 30n * 10n ** 12n, deposit: 1n }], { key: mine }));
    expect(ft.outcome!.status).toHaveProperty("SuccessValue");
    expect(ft.outcome!.receipts_outcome.flatMap((o) => o.outcome.logs)).toContain(
      `EVENT_JSON:{"standard":"nep141","version":"1.0.0","event":"ft_transfer","data":[{"old_owner_id":"${OWNER}","new_owner_id":"${HOLDER}","amount":"42"}]}`,
    );
    expect(BigInt(ftBalance(chain, OWNER))).toBe(before.owner - 42n);
    expect(BigInt(ftBalance(chain, HOLDER))).toBe(before.holder + 42n);
  });
});

describe("contract code by hash", () => {
  it("an upstream contract running the same wasm as one the fork holds is not fetched, after a restart either", async () => {
    const dataDir = join(dir, "by-hash");
    const open = () => Chain.open({ fork: { url: upstream.archivalUrl, block: forkHeight }, blockTimeMs: 0, dataDir });
    let chain = await open();
    try {
      // The fork's own ft.test.near (dev genesis) runs the ft fixture, as the upstream's token does.
      expect(Buffer.from(chain.at(chain.head()).code("ft.test.near")!)).toEqual(Buffer.from(fixtureContractCode("ft")));
      const before = chain.upstreamState!.calls;
      expect(Buffer.from(chain.at(chain.head()).code(TOKEN)!)).toEqual(Buffer.from(fixtureContractCode("ft")));
      expect(chain.upstreamState!.calls - before).toBe(1); // the token's account, not its code
    } finally {
      await chain.close();
    }
    chain = await open();
    try {
      const before = chain.upstreamState!.calls;
      expect(Buffer.from(chain.at(chain.head()).code(TOKEN)!)).toEqual(Buffer.from(fixtureContractCode("ft")));
      expect(chain.upstreamState!.calls - before).toBe(0); // its account and its code by hash, kept in the data dir
    } finally {
      await chain.close();
    }
  });
});

describe("cross-contract calls on a fresh fork", () => {
  let chain: Chain;
  beforeAll(async () => {
    chain = await Chain.open({ fork: { url: upstream.archivalUrl, block: forkHeight }, blockTimeMs: 0 });
  });
  afterAll(async () => chain?.close());

  it("a local contract calls an upstream contract nobody touched yet, fetching it as it goes", () => {
    const before = chain.upstreamState!.calls;
    const s = settle(chain, submit(chain, "alice.test.near", "relay.test.near", [{ type: "FunctionCall", methodName: "forward", args: args({ receiver_id: TOKEN, method_name: "ft_balance_of", args: { account_id: HOLDER } }), gas: 100n * 10n ** 12n, deposit: 0n }]));
    expect(s.outcome!.status).toEqual({ SuccessValue: Buffer.from(JSON.stringify({ status: "Successful", value: JSON.stringify(HOLDER_TOKENS.toString()) })).toString("base64") });
    // The token's account, its code and the balance key: fetched while the receipt executes.
    expect(chain.upstreamState!.calls - before).toBeGreaterThanOrEqual(3);
  });

  it("ft_transfer_call from an upstream holder to a local receiver, with the unused part refunded", () => {
    settle(chain, submit(chain, "test.near", TOKEN, [{ type: "FunctionCall", methodName: "storage_deposit", args: args({ account_id: "relay.test.near" }), gas: 30n * 10n ** 12n, deposit: NEAR / 100n }]));
    const s = settle(chain, submit(chain, HOLDER, TOKEN, [{ type: "FunctionCall", methodName: "ft_transfer_call", args: args({ receiver_id: "relay.test.near", amount: "1000", msg: "keep 300" }), gas: 150n * 10n ** 12n, deposit: 1n }]));
    expect(s.outcome!.status).toEqual({ SuccessValue: Buffer.from('"300"').toString("base64") });
    const logs = s.outcome!.receipts_outcome.flatMap((o) => o.outcome.logs);
    expect(logs).toContain(`relay keeps 300 of 1000 from ${HOLDER} via ${TOKEN}`);
    expect(logs.some((l) => l.includes('"memo":"refund"') && l.includes('"amount":"700"'))).toBe(true);
    expect(ftBalance(chain, "relay.test.near")).toBe("300");
    expect(ftBalance(chain, HOLDER)).toBe((HOLDER_TOKENS - 300n).toString());
  });

  it("reverts to a snapshot: upstream state reads back as before the writes", () => {
    const mark = chain.head().height;
    const amount = chain.at(chain.head()).account(OWNER)!.amount;
    settle(chain, submit(chain, OWNER, "bob.test.near", [{ type: "Transfer", deposit: NEAR }]));
    expect(chain.at(chain.head()).account(OWNER)!.amount).toBeLessThan(amount - NEAR);
    chain.stop();
    chain.producer.rewindTo(mark);
    expect(chain.at(chain.head()).account(OWNER)!.amount).toBe(amount);
  });
});

describe("a fork through a gateway with API keys", () => {
  it("forks the gateway's archival listener with --fork-api-key's key; a wrong key is refused at start with the upstream's answer", async () => {
    const keysFile = join(dir, "keys.json");
    const add = runCli(["keys", "add", "--file", keysFile, "--name", "fork"]);
    expect(await add.exited).toBe(0);
    const key = add.output().stdout.trim().split("\n").at(-1)!.trim();
    const gateway = await startGatewayProcess(["--upstream", upstream.rpcUrl, "--archival-upstream", upstream.archivalUrl, "--keys", keysFile]);
    try {
      const chain = await Chain.open({ fork: { url: gateway.archivalUrl, block: forkHeight, apiKey: key }, blockTimeMs: 0 });
      try {
        const theirs = await call(upstream.archivalUrl, "query", { request_type: "view_account", account_id: HOLDER, block_id: forkHeight });
        expect(chain.at(chain.head()).account(HOLDER)?.amount.toString()).toBe(theirs.amount);
      } finally {
        await chain.close();
      }
      await expect(Chain.open({ fork: { url: gateway.archivalUrl, apiKey: "wrong" }, blockTimeMs: 0 })).rejects.toThrow(/fork upstream http:\/\/\S+ failed status: HTTP 403/);
    } finally {
      await stop(gateway);
    }
  }, 60_000);
});
