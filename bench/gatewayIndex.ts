/**
 * Gateway index part of `npm run bench` (`--only=gatewayindex`), one throwaway PostgreSQL 15
 * (test/support/postgresServer.ts: fsync off, as the tests run it):
 * (m) the follower's indexing rate: `shardkit gateway --index --postgres` following an upstream
 *     `shardkit serve` that already holds N blocks, from genesis to its final head; blocks/s and
 *     the gateway's CPU per block, timed from the first committed block to the last (polls of
 *     idx_meta, so start-up and leader election are not counted);
 * (n) REST GET /v1/account/{id}/full from the PostgreSQL index (through the gateway) vs `serve`'s
 *     in-process index, same answer bytes, interleaved rounds in the same run.
 */
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { startPostgres } from "../test/support/postgresServer.js";
import { cpuMicros, loadGet, median } from "./measure.js";

interface Running {
  child: ChildProcess;
  announced: string;
}

export interface GatewayIndexBenchContext {
  startProcess(command: string, args: string[], pattern: RegExp): Promise<Running>;
  cli: string;
  seconds: number;
  rounds: number;
  quick: boolean;
  serverNodeArgs: string[];
}



async function call<T>(url: string, method: string, params: unknown): Promise<T> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: T; error?: unknown };
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

export async function gatewayIndexBench(ctx: GatewayIndexBenchContext): Promise<void> {
  const blocks = ctx.quick ? 100 : 400;
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url, max: 1 });
  pool.on("error", () => undefined);
  const running: Running[] = [];
  try {
    const upstream = await ctx.startProcess(
      process.execPath,
      [...ctx.serverNodeArgs, ctx.cli, "serve", "--log-level", "warn", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0", "--ephemeral"],
      /(regular RPC\s+http:\/\/\S+[\s\S]*REST API\s+http:\/\/\S+)\/v1/,
    );
    running.push(upstream);
    const [rpcUrl, serveApi] = [/regular RPC\s+(\S+)/.exec(upstream.announced)![1]!, /REST API\s+(\S+)/.exec(upstream.announced)![1]!];
    await call(rpcUrl, "sandbox_fast_forward", { delta_height: blocks });
    const final = (await call<{ header: { height: number } }>(rpcUrl, "block", { finality: "final" })).header.height;

    const gateway = await ctx.startProcess(
      process.execPath,
      [...ctx.serverNodeArgs, ctx.cli, "gateway", "--log-level", "warn", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--upstream", rpcUrl, "--index", "--postgres", postgres.url],
      /REST API\s+(http:\/\/\S+)\/v1/,
    );
    running.push(gateway);
    const pid = gateway.child.pid!;
    const indexed = async (): Promise<number | null> => {
      const { rows } = await pool.query<{ height: string | null }>("SELECT height FROM idx_meta").catch(() => ({ rows: [] as { height: string | null }[] }));
      return rows[0]?.height == null ? null : Number(rows[0].height);
    };
    // From the first committed block on: the follower's steady rate, not its start-up.
    let first: { height: number; at: number; cpu: number } | undefined;
    let height: number | null = null;
    const deadline = Date.now() + 600_000;
    for (;;) {
      height = await indexed();
      if (height !== null && first === undefined) first = { height, at: performance.now(), cpu: cpuMicros(pid) };
      if (height !== null && height >= final) break;
      if (Date.now() > deadline) throw new Error(`the index reached ${height} of ${final} in 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - first!.at) / 1000;
    const followed = height - first!.height;
    const cpuPerBlock = (cpuMicros(pid) - first!.cpu) / followed;
    console.log(`(m) gateway --index following shardkit serve into PostgreSQL 15 (fsync off): ${followed} blocks (dev chain, 4 shards, mostly empty) after the first`);
    console.log(`    ${(followed / seconds).toFixed(1)} blocks/s (${seconds.toFixed(1)} s), gateway CPU ${(cpuPerBlock / 1000).toFixed(2)} ms per block`);

    const path = "/v1/account/alice.test.near/full";
    const fromPostgres = `${gateway.announced}${path}`;
    const inProcess = `${serveApi}${path}`;
    const [a, b] = await Promise.all([fetch(fromPostgres).then((r) => r.text()), fetch(inProcess).then((r) => r.text())]);
    // The follower indexes final blocks, serve's index the head: the same account rows, two heights apart.
    const sameRows = (text: string) => text.replace(/"block_height":\d+/, "");
    if (sameRows(a) !== sameRows(b) || !a.includes('"state":{')) throw new Error(`the two indexes answer differently:\n${a}\n${b}`);
    await loadGet(fromPostgres, pid, 1); // warm-up both
    await loadGet(inProcess, upstream.child.pid!, 1);
    const pgRuns: { rate: number; cpuPerRequest: number }[] = [];
    const memRuns: { rate: number; cpuPerRequest: number }[] = [];
    for (let i = 0; i < ctx.rounds; i++) {
      memRuns.push(await loadGet(inProcess, upstream.child.pid!, ctx.seconds));
      pgRuns.push(await loadGet(fromPostgres, pid, ctx.seconds));
    }
    const rate = (runs: typeof pgRuns) => median(runs.map((r) => r.rate));
    const cpu = (runs: typeof pgRuns) => median(runs.map((r) => r.cpuPerRequest));
    console.log(`(n) REST GET ${path} (${Buffer.byteLength(a)} B, the same rows from both), 50 connections, ${ctx.rounds}x${ctx.seconds}s interleaved`);
    console.log(
      `    PostgreSQL index via gateway ${Math.round(rate(pgRuns))} req/s, serve's in-process index ${Math.round(rate(memRuns))} req/s, ratio ${(rate(pgRuns) / rate(memRuns)).toFixed(2)}`,
    );
    console.log(`    CPU per request: gateway ${cpu(pgRuns).toFixed(1)} µs (plus PostgreSQL's, not pinned), serve ${cpu(memRuns).toFixed(1)} µs`);
  } finally {
    for (const r of running.reverse()) r.child.kill();
    await pool.end().catch(() => undefined);
    postgres.destroy();
  }
}
