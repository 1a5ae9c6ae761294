import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import nearWorkspaces, { type NearAccount, type Worker as NearWorker } from "near-workspaces";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_INIT_BALANCE, SANDBOX_INIT_STAKE } from "../../src/chain/genesis/sandboxGenesis.js";
import { cliNodeArgs, repoRoot, startServe, stop, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { thirdPartyWasm } from "../chain/vm/thirdPartyWasm.js";

// near-workspaces (JS, 5.0.0 from npm, unmodified) running on `shardkit sandbox` as its
// near-sandbox binary: the launcher from `shardkit sandbox-path`, found the way near-workspaces
// finds nearcore's (NEAR_SANDBOX_BIN_PATH set, NEAR_SANDBOX_BINARY_PATH the launcher's directory).
const { Worker, ONE_NEAR, captureError, hashContract } = nearWorkspaces;

const wasm = (name: string) => readFileSync(join(repoRoot, "contracts", "build", `${name}.wasm`));

// Contracts nobody here wrote, from published npm tarballs (pinned by sha256, cached; see thirdPartyWasm.ts):
// the NEP-21 fungible token (Rust) from near-shell's test resources, near-api-js's test contract
// (AssemblyScript) from near-hello, and NEAR's testnet linkdrop (Rust) shipped in near-workspaces.
const NEP21 = thirdPartyWasm("near-shell", "0.24.9", "test/res/fungible_token.wasm", "2bd0aeefd4465a0c06fb4a9515c6e3cd490ae9e18917a56b1bd8f05f9c859e73");
const HELLO = thirdPartyWasm("near-hello", "0.5.1", "dist/main.wasm", "ecfb572e7ad8722d94d9eb6668d981766a8e6de024fdf49e7aa365a40e04dd9e");
const LINKDROP = thirdPartyWasm("near-workspaces", "5.0.0", "core_contracts/testnet-linkdrop.wasm", "006468efb06dbc91e04dbc90a31fac4b8684062e9e4f9c228de53154f6f49c72");
const TGAS = 10n ** 12n;

/** What the signer paid for a transaction's gas: every outcome's tokens_burnt (shardkit's gas price is constant, so refunds return the rest). */
const burnt = (result: { outcomes: { tokens_burnt: string }[] }) => result.outcomes.reduce((sum, o) => sum + BigInt(o.tokens_burnt), 0n);

/**
 * Waits until the transaction is FINAL, which (unlike the EXECUTED_OPTIMISTIC answer a call
 * returns with, as nearcore) includes its gas refunds: then the signer's balance is exact.
 */
const refunded = async (result: { result: { transaction: { hash: string; signer_id: string } } }) =>
  worker.provider.sendJsonRpc("tx", { tx_hash: result.result.transaction.hash, sender_account_id: result.result.transaction.signer_id, wait_until: "FINAL" });

let worker: NearWorker;
let root: NearAccount;
let upstream: (CliProcess & ServeUrls) | undefined;

beforeAll(async () => {
  const printed = spawnSync(process.execPath, [...cliNodeArgs, "sandbox-path"], { encoding: "utf8" });
  expect(printed.status, printed.stderr).toBe(0);
  const launcher = printed.stdout.trim();
  process.env.NEAR_SANDBOX_BIN_PATH = launcher;
  process.env.NEAR_SANDBOX_BINARY_PATH = dirname(launcher);
  // importContract's "mainnet": a dev chain of our own, served by `shardkit serve`.
  upstream = await startServe(["--block-time", "0"]);
  process.env.NEAR_CLI_MAINNET_RPC_SERVER_URL = upstream.rpcUrl;
  worker = await Worker.init();
  root = worker.rootAccount;
}, 120_000);

afterAll(async () => {
  await worker?.tearDown();
  if (upstream) await stop(upstream);
});

describe("near-workspaces (JS) on shardkit sandbox", { timeout: 60_000 }, () => {
  it("starts from nearcore's minimal genesis: root test.near (key from validator_key.json) and the treasury near, nothing else", async () => {
    expect(root.accountId).toBe("test.near");
    expect(await root.accountView()).toMatchObject({ amount: SANDBOX_INIT_BALANCE.toString(), locked: SANDBOX_INIT_STAKE.toString() });
    expect((await root.getAccount("near").accountView()).amount).toBe(SANDBOX_INIT_BALANCE.toString());
    expect(await root.getAccount("bob.test.near").exists()).toBe(false);
  });

  it("creates accounts and transfers, balances to the yocto", async () => {
    const rootBefore = BigInt((await root.accountView()).amount);
    const alice = await root.createSubAccount("alice", { initialBalance: 10n * ONE_NEAR });
    expect(alice.accountId).toBe("alice.test.near");
    expect((await alice.accountView()).amount).toBe((10n * ONE_NEAR).toString());
    const sent = await root.transfer(alice, 1n);
    expect(sent.succeeded).toBe(true);
    expect((await alice.accountView()).amount).toBe((10n * ONE_NEAR + 1n).toString());
    const rootAfter = BigInt((await root.accountView()).amount);
    // 10 NEAR + 1 yocto left the root, and the gas it burnt for both transactions.
    const created = rootBefore - rootAfter - 10n * ONE_NEAR - 1n - burnt(sent);
    expect(created).toBeGreaterThan(0n);
    expect(created).toBeLessThan(ONE_NEAR / 100n);
  });

  it("deploys our fixture contracts, calls and views them, and calls across contracts with callbacks", async () => {
    const kv = await root.devDeploy(wasm("kv"));
    const relay = await root.devDeploy(wasm("relay"));
    const user = await root.createSubAccount("user", { initialBalance: 5n * ONE_NEAR });
    await user.call(kv, "set", { key: "greeting", value: "hello" });
    expect(await kv.view("get", { key: "greeting" })).toBe("hello");
    const forwarded = await user.callRaw(relay, "forward", { receiver_id: kv.accountId, method_name: "get", args: { key: "greeting" } }, { gas: 100n * TGAS });
    expect(forwarded.succeeded).toBe(true);
    expect(forwarded.parseResult()).toEqual({ status: "Successful", value: '"hello"' });
    expect(forwarded.logs).toContain("on_forward sees 1 result(s)");
    const joined = await user.callRaw(relay, "join_with_failure", { receiver_id: kv.accountId, method_name: "get", args: { key: "greeting" } }, { gas: 150n * TGAS });
    expect(joined.parseResult()).toEqual([{ status: "Successful", value: '"hello"' }, { status: "Failed" }]);
  });

  it.skipIf(NEP21 === undefined)("deploys a third-party NEP-21 token (near-shell's Rust build): init, a paid transfer, token and NEAR balances to the yocto", async () => {
    const ft = await root.devDeploy(Buffer.from(NEP21!));
    await root.call(ft, "new", { owner_id: root.accountId, total_supply: "1000000" });
    const holder = await root.createSubAccount("holder", { initialBalance: ONE_NEAR });
    // The creation's gas refund (NEP-642's price surplus, less the account charge) comes a block
    // after its receipt: a later transaction that is FINAL with its own refunds comes after it.
    await refunded(await root.transfer(root.accountId, 1n));
    const before = BigInt((await root.accountView()).amount);
    // A new balance costs its storage (36.5 milliNEAR on NEAR's fees); the contract refunds the rest of the deposit.
    const sent = await root.callRaw(ft, "transfer", { new_owner_id: holder.accountId, amount: "250" }, { attachedDeposit: ONE_NEAR, gas: 100n * TGAS });
    expect(sent.succeeded).toBe(true);
    const storage = 36_500_000_000_000_000_000_000n;
    expect(sent.logs).toContain(`Refunding ${ONE_NEAR - storage} tokens for storage`);
    await refunded(sent);
    expect(BigInt((await root.accountView()).amount)).toBe(before - storage - burnt(sent));
    expect(await ft.view("get_balance", { owner_id: holder.accountId })).toBe("250");
    expect(await ft.view("get_balance", { owner_id: root.accountId })).toBe("999750");
    expect(await ft.view("get_total_supply", {})).toBe("1000000");
    expect(await captureError(async () => holder.call(ft, "transfer", { new_owner_id: root.accountId, amount: "251" }, { attachedDeposit: ONE_NEAR / 10n }))).toMatch(/Smart contract panicked: Not enough balance/);
  });

  it.skipIf(HELLO === undefined)("calls across two third-party AssemblyScript contracts (near-hello, near-api-js's promise tests): A -> B => A, the callback sees B's result", async () => {
    const a = await root.devDeploy(Buffer.from(HELLO!));
    const b = await root.devDeploy(Buffer.from(HELLO!));
    const user = await root.createSubAccount("promiser", { initialBalance: 5n * ONE_NEAR });
    const before = BigInt((await user.accountView()).amount);
    const result = await user.callRaw(
      a,
      "callPromise",
      {
        args: {
          receiver: b.accountId,
          methodName: "callbackWithName",
          args: null,
          gas: (20n * TGAS).toString(),
          balance: "0",
          callback: "callbackWithName",
          callbackArgs: null,
          callbackBalance: "0",
          callbackGas: (20n * TGAS).toString(),
        },
      },
      { gas: 100n * TGAS },
    );
    expect(result.succeeded).toBe(true);
    const fromB = { rs: [], n: b.accountId };
    expect(await b.view("getLastResult", {})).toEqual(fromB);
    const fromA = { rs: [{ ok: true, r: fromB }], n: a.accountId };
    expect(await a.view("getLastResult", {})).toEqual(fromA);
    expect(result.parseResult()).toEqual(fromA);
    await refunded(result);
    expect(BigInt((await user.accountView()).amount)).toBe(before - burnt(result));
  });

  it.skipIf(LINKDROP === undefined)("creates an account through the third-party linkdrop contract (near-workspaces' own): the new account holds the deposit to the yocto", async () => {
    const linkdrop = await root.createSubAccount("drop", { initialBalance: 10n * ONE_NEAR });
    await linkdrop.deploy(Buffer.from(LINKDROP!));
    const key = nearWorkspaces.KeyPairEd25519.fromRandom();
    const before = BigInt((await root.accountView()).amount);
    const created = await root.callRaw(linkdrop, "create_account", { new_account_id: `kid.${linkdrop.accountId}`, new_public_key: key.getPublicKey().toString() }, { attachedDeposit: 2n * ONE_NEAR, gas: 100n * TGAS });
    // The linkdrop's callback answers whether the account was made.
    expect(created.parseResult()).toBe(true);
    await refunded(created);
    const kid = root.getAccount(`kid.${linkdrop.accountId}`);
    expect((await kid.accountView()).amount).toBe((2n * ONE_NEAR).toString());
    expect((await worker.provider.viewAccessKeys(kid.accountId)).keys).toEqual([{ public_key: key.getPublicKey().toString(), access_key: { nonce: expect.any(Number), permission: "FullAccess" } }]);
    expect(BigInt((await root.accountView()).amount)).toBe(before - 2n * ONE_NEAR - burnt(created));
  });

  it("patches state: patchState, updateData, updateAccount, updateAccessKey, written as given", async () => {
    const kv = await root.devDeploy(wasm("kv"));
    await kv.patchState("raw-key", "raw-value");
    await kv.updateData(Buffer.from("second"), Buffer.from("2"));
    const state = await kv.viewStateRaw();
    expect(state).toEqual(
      expect.arrayContaining([
        { key: Buffer.from("raw-key").toString("base64"), value: Buffer.from("raw-value").toString("base64") },
        { key: Buffer.from("second").toString("base64"), value: Buffer.from("2").toString("base64") },
      ]),
    );
    // updateAccount merges near-workspaces' defaults (no code, storage_usage 0) with what it is given.
    const rich = root.getAccount("rich.test.near");
    await rich.updateAccount({ amount: "123456789", storage_usage: 182 });
    expect(await rich.accountView()).toMatchObject({ amount: "123456789", locked: "0", storage_usage: 182, code_hash: "11111111111111111111111111111111" });
    const key = nearWorkspaces.KeyPairEd25519.fromRandom();
    await rich.updateAccessKey(key.getPublicKey().toString(), { nonce: 9, permission: "FullAccess" });
    const keys = await worker.provider.viewAccessKeys(rich.accountId);
    expect(keys.keys).toEqual([{ public_key: key.getPublicKey().toString(), access_key: { nonce: 9, permission: "FullAccess" } }]);
  });

  it("updateContract after updateAccount with the code's hash runs the new code (near-workspaces itself refuses a code_hash that does not match, as nearcore asserts)", async () => {
    const target = await root.createSubAccount("swap", { initialBalance: 5n * ONE_NEAR });
    const view = await target.accountView();
    expect(await captureError(async () => target.updateContract(wasm("kv")))).toMatch(/does not equal the hash of the binary/);
    await target.updateAccount({ amount: String(view.amount), locked: String(view.locked), storage_usage: view.storage_usage, code_hash: hashContract(wasm("kv")) });
    await target.updateContract(wasm("kv"));
    expect((await target.accountView()).code_hash).toBe(hashContract(wasm("kv")));
    await root.call(target, "set", { key: "k", value: "v" });
    expect(await target.view("get", { key: "k" })).toBe("v");
  });

  it("imports a contract with its data from an upstream shardkit serve (NEAR_CLI_MAINNET_RPC_SERVER_URL)", async () => {
    const upstreamView = await fetch(upstream!.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "query", params: { request_type: "view_account", finality: "final", account_id: "ft.test.near" } }),
    }).then(async (r) => ((await r.json()) as { result: { code_hash: string; storage_usage: number } }).result);
    const ft = await root.importContract({ mainnetContract: "ft.test.near", withData: true, initialBalance: 7n * ONE_NEAR });
    expect(await ft.accountView()).toMatchObject({ amount: (7n * ONE_NEAR).toString(), code_hash: upstreamView.code_hash, storage_usage: upstreamView.storage_usage });
    expect(await ft.view("ft_balance_of", { account_id: "test.near" })).toBe((10n ** 27n).toString());
    expect(await ft.view("ft_metadata", {})).toMatchObject({ symbol: "SKT", decimals: 18 });
  });

  it("fast-forwards: the final block is delta_height higher", async () => {
    const before = await worker.provider.block({ finality: "final" });
    await worker.provider.fastForward(100);
    const after = await worker.provider.block({ finality: "final" });
    expect(after.header.height - before.header.height).toBeGreaterThanOrEqual(100);
    expect(BigInt(after.header.timestamp_nanosec)).toBeGreaterThan(BigInt(before.header.timestamp_nanosec));
  });

  it("runs several workers in parallel, each its own sandbox process, home and chain", async () => {
    const workers = await Promise.all([Worker.init(), Worker.init(), Worker.init()]);
    try {
      const homes = new Set(workers.map((w) => (w as unknown as { config: { homeDir: string } }).config.homeDir));
      expect(homes.size).toBe(3);
      const keys = await Promise.all(workers.map(async (w) => (await w.rootAccount.getKey())?.getPublicKey().toString()));
      expect(new Set(keys).size).toBe(3);
      // The same account name in each chain: no worker sees another's.
      const made = await Promise.all(workers.map(async (w, i) => w.rootAccount.createSubAccount("same", { initialBalance: BigInt(i + 1) * ONE_NEAR })));
      expect(await Promise.all(made.map(async (a) => (await a.accountView()).amount))).toEqual([1n, 2n, 3n].map((n) => (n * ONE_NEAR).toString()));
    } finally {
      await Promise.all(workers.map(async (w) => w.tearDown()));
    }
  });

  // On-demand blocks: after the last transaction the chain makes it final (two more blocks), then
  // idles; without that, waiting for FINAL would never end and `final` would not show the transfer.
  it("a finality: final read shows the last transaction (on-demand blocks catch final up)", async () => {
    const late = await root.createSubAccount("late", { initialBalance: ONE_NEAR });
    const sent = await root.transfer(late, 5n);
    const status = (await worker.provider.sendJsonRpc("tx", { tx_hash: sent.result.transaction.hash, sender_account_id: root.accountId, wait_until: "FINAL" })) as {
      final_execution_status: string;
    };
    expect(status.final_execution_status).toBe("FINAL");
    const view = await worker.provider.viewAccount(late.accountId, { finality: "final" });
    expect(String(view.amount)).toBe((ONE_NEAR + 5n).toString());
  });
});
