/**
 * Gateway part of `npm run bench` (`--only=gateway`):
 * (k) view_state pages (5 entries) through `shardkit gateway` vs straight to its upstream
 *     `shardkit serve`, in the same run: the gateway's CPU per request relative to the
 *     upstream's (target: adds <= 15%), from /proc stat of both processes under autocannon load
 *     (interleaved rounds), and the p50 latency delta of sequential requests (target <= 1 ms).
 *     A bare proxy (bareProxy.mjs: node:http + undici dispatch, nothing else) in front of the
 *     same upstream is the floor any Node proxy pays: the report shows gateway vs bare proxy vs
 *     direct, so the gateway's own cost is told apart from the cost of being a Node proxy at all.
 */
import type { ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { join } from "node:path";
import autocannon from "autocannon";
import { cpuMicros, median } from "./measure.js";

interface Running {
  child: ChildProcess;
  announced: string;
}

export interface GatewayBenchContext {
  startProcess(command: string, args: string[], pattern: RegExp): Promise<Running>;
  cli: string;
  seconds: number;
  rounds: number;
  latencySamples: number;
  serverNodeArgs: string[];
}



interface Round {
  rate: number;
  requests: number;
  /** CPU of the proxy in front (gateway or bare proxy; 0 for direct rounds), µs. */
  proxyCpu: number;
  upstreamCpu: number;
}

/** One autocannon run against `url`, with the CPU used meanwhile by the proxy in front (if any) and the upstream. */
async function loadRound(url: string, body: string, seconds: number, proxyPid: number | undefined, upstreamPid: number): Promise<Round> {
  const proxyBefore = proxyPid === undefined ? 0 : cpuMicros(proxyPid);
  const upstreamBefore = cpuMicros(upstreamPid);
  const result = await autocannon({ url, method: "POST", body, headers: { "content-type": "application/json" }, connections: 50, pipelining: 1, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load run had ${result.non2xx} non-2xx and ${result.errors} errors`);
  const proxyCpu = proxyPid === undefined ? 0 : cpuMicros(proxyPid) - proxyBefore;
  return { rate: result.requests.average, requests: result.requests.total, proxyCpu, upstreamCpu: cpuMicros(upstreamPid) - upstreamBefore };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function timedPost(url: string, body: string): Promise<{ ms: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ ms: performance.now() - started, text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function gatewayOverhead(ctx: GatewayBenchContext): Promise<void> {
  const upstream = await ctx.startProcess(
    process.execPath,
    [...ctx.serverNodeArgs, ctx.cli, "serve", "--log-level", "warn", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0", "--ephemeral"],
    /regular RPC\s+(http:\/\/\S+)/,
  );
  const gateway = await ctx.startProcess(
    process.execPath,
    [...ctx.serverNodeArgs, ctx.cli, "gateway", "--log-level", "warn", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--upstream", upstream.announced],
    /regular RPC\s+(http:\/\/\S+)/,
  );
  const bare = await ctx.startProcess(process.execPath, [join(import.meta.dirname, "bareProxy.mjs"), upstream.announced], /listening (\d+)/);
  const bareUrl = `http://127.0.0.1:${bare.announced}/`;
  try {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: "dontcare",
      method: "query",
      params: { request_type: "view_state", finality: "final", account_id: "kv.test.near", prefix_base64: "", limit: 5 },
    });
    const direct = await timedPost(upstream.announced, body);
    const through = await timedPost(gateway.announced, body);
    const viaBare = await timedPost(bareUrl, body);
    if (!direct.text.includes('"values"') || through.text !== direct.text || viaBare.text !== direct.text) {
      throw new Error(`unexpected replies:\n${direct.text}\n${through.text}\n${viaBare.text}`);
    }
    const gatewayPid = gateway.child.pid!;
    const barePid = bare.child.pid!;
    const upstreamPid = upstream.child.pid!;

    // Warm-up every path, then interleaved rounds.
    await loadRound(gateway.announced, body, 1, gatewayPid, upstreamPid);
    await loadRound(bareUrl, body, 1, barePid, upstreamPid);
    await loadRound(upstream.announced, body, 1, undefined, upstreamPid);
    const viaGateway: Round[] = [];
    const viaBareProxy: Round[] = [];
    const straight: Round[] = [];
    for (let i = 0; i < ctx.rounds; i++) {
      straight.push(await loadRound(upstream.announced, body, ctx.seconds, undefined, upstreamPid));
      viaBareProxy.push(await loadRound(bareUrl, body, ctx.seconds, barePid, upstreamPid));
      viaGateway.push(await loadRound(gateway.announced, body, ctx.seconds, gatewayPid, upstreamPid));
    }
    const perRequest = (rounds: Round[], cpu: (r: Round) => number) => median(rounds.map((r) => cpu(r) / r.requests));
    const upstreamPerRequest = perRequest(straight, (r) => r.upstreamCpu);
    const upstreamBehindGateway = perRequest(viaGateway, (r) => r.upstreamCpu);
    const gatewayPerRequest = perRequest(viaGateway, (r) => r.proxyCpu);
    const barePerRequest = perRequest(viaBareProxy, (r) => r.proxyCpu);
    const rate = (rounds: Round[]) => Math.round(median(rounds.map((r) => r.rate)));

    // Sequential requests, one connection each, interleaved: the latency the hop adds.
    const latencies = { direct: [] as number[], gateway: [] as number[], bare: [] as number[] };
    for (let i = 0; i < ctx.latencySamples + 200; i++) {
      const a = await timedPost(upstream.announced, body);
      const b = await timedPost(gateway.announced, body);
      const c = await timedPost(bareUrl, body);
      if (i >= 200) {
        latencies.direct.push(a.ms);
        latencies.gateway.push(b.ms);
        latencies.bare.push(c.ms);
      }
    }
    const p50Direct = median(latencies.direct);
    const p50Gateway = median(latencies.gateway);
    const p50Bare = median(latencies.bare);

    console.log(`(k) view_state page of 5 entries (${Buffer.byteLength(direct.text)} B) through shardkit gateway vs a bare undici proxy vs straight to the upstream (shardkit serve), 50 connections, ${ctx.rounds}x${ctx.seconds}s interleaved`);
    console.log(
      `    CPU per request: gateway ${gatewayPerRequest.toFixed(1)} µs, bare proxy ${barePerRequest.toFixed(1)} µs (gateway/bare ${(gatewayPerRequest / barePerRequest).toFixed(2)}x), upstream ${upstreamPerRequest.toFixed(1)} µs (${upstreamBehindGateway.toFixed(1)} µs behind the gateway)`,
    );
    console.log(
      `    vs the upstream's own CPU: gateway adds ${((100 * gatewayPerRequest) / upstreamPerRequest).toFixed(0)}% (target <= 15%), a bare proxy adds ${((100 * barePerRequest) / upstreamPerRequest).toFixed(0)}%`,
    );
    console.log(`    throughput: via gateway ${rate(viaGateway)} req/s, via bare proxy ${rate(viaBareProxy)} req/s, direct ${rate(straight)} req/s (proxies and upstream share core 0)`);
    console.log(
      `    p50 latency, ${ctx.latencySamples} sequential requests each: gateway ${p50Gateway.toFixed(3)} ms, bare proxy ${p50Bare.toFixed(3)} ms, direct ${p50Direct.toFixed(3)} ms; gateway delta ${(p50Gateway - p50Direct).toFixed(3)} ms (target <= 1 ms)`,
    );
  } finally {
    bare.child.kill();
    gateway.child.kill();
    upstream.child.kill();
  }
}
