/**
 * Fork mode (`npm run bench -- --only=fork`): a chain forked from an upstream `shardkit serve`
 * (its own genesis: test/chain/fork/upstreamGenesis.ts), in-process.
 * - upstream requests per first touch: a transfer signed by an upstream account nobody touched
 *   (target <= 3: account, code, first key), and per storage read of an unseen key (a view call
 *   reading one more FT balance; target 1);
 * - ft_transfer per second on the forked token once warm, against the same FT contract in the
 *   fork's own genesis (ft.test.near), rounds interleaved in the same run (target >= 0.9x).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Chain } from "../src/chain/node.js";
import { devKeyPair } from "../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { encodeSignedTransaction, signTransaction, type Action } from "../src/chain/transaction/index.js";
import { HOLDER, OWNER, TOKEN, writeUpstreamGenesis } from "../test/chain/fork/upstreamGenesis.js";
import { median } from "./measure.js";

interface Options {
  readonly quick: boolean;
  readonly cli: string;
  readonly startProcess: (command: string, args: string[], pattern: RegExp) => Promise<{ child: import("node:child_process").ChildProcess; announced: string }>;
}

const TGAS = 10n ** 12n;
const enc = new TextEncoder();
const call = (methodName: string, args: unknown, deposit: bigint): Action => ({ type: "FunctionCall", methodName, args: enc.encode(JSON.stringify(args)), gas: 30n * TGAS, deposit });

export async function forkBench(options: Options): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "shardkit-bench-fork-"));
  const genesis = join(dir, "upstream.json");
  await writeUpstreamGenesis(genesis);
  const upstream = await options.startProcess(
    process.execPath,
    [options.cli, "serve", "--genesis", genesis, "--block-time", "0", "--shards", "2", "--ephemeral", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--log-level", "warn"],
    /archival RPC\s+(http:\/\/\S+)/,
  );
  const chain = await Chain.open({ fork: { url: upstream.announced, requestsPerSecond: 10_000 }, blockTimeMs: 0, ...(process.env.BENCH_FORK_EPHEMERAL ? {} : { dataDir: join(dir, "fork") }) });
  try {
    const nonces = new Map<string, bigint>();
    const submit = (signer: string, receiver: string, actions: Action[]) => {
      const key = devKeyPair(signer);
      const nonce = (nonces.get(signer) ?? chain.at(chain.head()).accessKey(signer, formatPublicKey(key.publicKey))?.nonce ?? 0n) + 1n;
      nonces.set(signer, nonce);
      chain.submitTransaction(encodeSignedTransaction(signTransaction({ version: 0, signerId: signer, publicKey: key.publicKey, nonce, receiverId: receiver, blockHash: chain.head().hashBytes, actions }, key)));
    };
    const settle = () => {
      for (let i = 0; i < 4; i++) chain.produceBlock();
    };
    const upstreamCalls = () => chain.upstreamState!.calls;

    // First touch of an account: a transfer it signs.
    const before = upstreamCalls();
    submit(OWNER, "alice.test.near", [{ type: "Transfer", deposit: 1n }]);
    settle();
    const perAccount = upstreamCalls() - before;
    // One unseen storage key: the FT balance of an account nobody asked about (the contract, its code and STATE already read).
    const view = (accountId: string) => chain.at(chain.head()).callFunction(TOKEN, "ft_balance_of", enc.encode(JSON.stringify({ account_id: accountId })));
    view(OWNER);
    const beforeKey = upstreamCalls();
    if (!view("nobody-asked.near").ok) throw new Error("ft_balance_of failed");
    const perKey = upstreamCalls() - beforeKey;
    console.log(`(q) fork mode: upstream requests for the first transaction of an untouched upstream account ${perAccount} (target <= 3), for one unseen storage key ${perKey} (target 1)`);

    // ft_transfer rate: the forked token (HOLDER sends) against the fork's own FT (test.near sends).
    for (const token of [TOKEN, "ft.test.near"]) submit("test.near", token, [call("storage_deposit", { account_id: "alice.test.near" }, 10n ** 22n)]);
    settle();
    const batch = 40;
    const round = (signer: string, token: string): number => {
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) submit(signer, token, [call("ft_transfer", { receiver_id: "alice.test.near", amount: "1" }, 1n)]);
      settle();
      return batch / ((performance.now() - t0) / 1000);
    };
    const rounds = options.quick ? 3 : 9;
    for (let i = 0; i < 3; i++) {
      round(HOLDER, TOKEN);
      round("test.near", "ft.test.near");
    }
    const forked: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < rounds; i++) {
      forked.push(round(HOLDER, TOKEN));
      local.push(round("test.near", "ft.test.near"));
    }
    const ratio = median(forked.map((f, i) => f / local[i]!));
    console.log(
      `    ft_transfer on the forked token once warm ${median(forked).toFixed(0)}/s, the same contract in the fork's genesis ${median(local).toFixed(0)}/s: ratio ${ratio.toFixed(2)} (median of ${rounds} paired rounds of ${batch}; target >= 0.9)`,
    );
  } finally {
    await chain.close();
    upstream.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}
