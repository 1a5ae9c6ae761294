// `--trust-proxy CIDR` over real HTTP, for `shardkit serve` and `shardkit gateway`: keyless
// clients behind a trusted proxy get a bucket each (the X-Forwarded-For client), while an
// untrusted peer's X-Forwarded-For is ignored (anyone can send one) and all its requests share
// the peer's bucket. The tests' peer is 127.0.0.1, so trusting 127.0.0.1 makes them the proxy.

import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayFlagSpecs, gatewayOptionsFrom } from "../../../src/cli/gatewayCommand.js";
import { parseFlags } from "../../../src/cli/flags.js";
import { serveFlagSpecs, serveOptionsFrom } from "../../../src/cli/serveOptions.js";
import { clientAddressOf } from "../../../src/server/http/clientAddress.js";
import { startServe, stop, type CliProcess, type ServeUrls } from "../../cli/cliProcess.js";
import { startGatewayProcess, type GatewayUrls } from "../../gateway/gatewayProcess.js";

const STATUS = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "status", params: [] });

async function status(url: string, forwardedFor?: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor !== undefined && { "x-forwarded-for": forwardedFor }) },
    body: STATUS,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Sequential requests (a cap of 3 per minute refills one token in 20 s: none during a test). */
async function statuses(url: string, forwardedFor: (string | undefined)[]): Promise<number[]> {
  const out: number[] = [];
  for (const hop of forwardedFor) out.push(await status(url, hop));
  return out;
}

/** The same checks against any listener that caps keyless requests at 3 per minute and trusts the test's peer. */
function behindTrustedProxy(url: () => string): void {
  it("gives each X-Forwarded-For client its own bucket", async () => {
    expect(await statuses(url(), ["203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.1"])).toEqual([200, 200, 200, 429]);
    // Another client behind the same proxy is not affected.
    expect(await statuses(url(), ["203.0.113.2", "203.0.113.2"])).toEqual([200, 200]);
  });

  it("counts the rightmost untrusted hop: a forged leftmost hop does not get a fresh bucket", async () => {
    // The client wrote "198.51.100.7"; the proxy appended the address it saw, 203.0.113.1 (capped above).
    expect(await status(url(), "198.51.100.7, 203.0.113.1")).toBe(429);
    // Two trusted proxies in a row: the hop before them is the client.
    expect(await statuses(url(), ["203.0.113.3, 127.0.0.1", "203.0.113.3,127.0.0.1", "203.0.113.3", "203.0.113.3"])).toEqual([200, 200, 200, 429]);
  });
}

describe("shardkit serve --trust-proxy", () => {
  let serve: CliProcess & ServeUrls;
  beforeAll(async () => {
    serve = await startServe(["--public-rate", "3", "--trust-proxy", "127.0.0.0/8", "--trust-proxy", "::1"]);
  }, 120_000);
  afterAll(async () => {
    if (serve !== undefined) await stop(serve);
  });
  behindTrustedProxy(() => serve.rpcUrl);
});

describe("shardkit gateway --trust-proxy", () => {
  let upstream: CliProcess & ServeUrls;
  let trusting: CliProcess & GatewayUrls;
  let untrusting: CliProcess & GatewayUrls;
  beforeAll(async () => {
    upstream = await startServe();
    [trusting, untrusting] = await Promise.all([
      startGatewayProcess(["--upstream", upstream.rpcUrl, "--public-rate", "3", "--trust-proxy", "127.0.0.1"]),
      // Trusts a network the test's peer is not in: its X-Forwarded-For must be ignored.
      startGatewayProcess(["--upstream", upstream.rpcUrl, "--public-rate", "3", "--trust-proxy", "10.0.0.0/8"]),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([trusting, untrusting, upstream].filter((p) => p !== undefined).map((p) => stop(p)));
  });

  behindTrustedProxy(() => trusting.rpcUrl);

  it("ignores an untrusted peer's X-Forwarded-For: every request counts against the peer", async () => {
    expect(await statuses(untrusting.rpcUrl, ["203.0.113.1", "203.0.113.2", undefined, "203.0.113.4"])).toEqual([200, 200, 200, 429]);
  });
});

describe("client address rules", () => {
  const request = (peer: string, forwardedFor?: string | string[]) =>
    ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } }) as unknown as IncomingMessage;

  it("without trusted proxies is the TCP peer (IPv4-mapped IPv6 as IPv4)", () => {
    const of = clientAddressOf([]);
    expect(of(request("10.1.2.3", "203.0.113.1"))).toBe("10.1.2.3");
    expect(of(request("::ffff:10.1.2.3"))).toBe("10.1.2.3");
  });

  it("walks X-Forwarded-For from the right past trusted hops, IPv4 and IPv6", () => {
    const of = clientAddressOf(["10.0.0.0/8", "fd00::/8"]);
    expect(of(request("::ffff:10.0.0.5", "203.0.113.9"))).toBe("203.0.113.9");
    expect(of(request("fd00::1", ["2001:db8::1, 10.0.0.7", "fd12::3"]))).toBe("2001:db8::1");
    // Every hop trusted: the leftmost; no header: the proxy itself.
    expect(of(request("10.0.0.5", "10.9.9.9, 10.0.0.7"))).toBe("10.9.9.9");
    expect(of(request("10.0.0.5"))).toBe("10.0.0.5");
    // A hop that is not an address ends the walk at the trusted hop after it.
    expect(of(request("10.0.0.5", "203.0.113.9, garbage, 10.0.0.7"))).toBe("10.0.0.7");
    expect(of(request("192.0.2.1", "203.0.113.9"))).toBe("192.0.2.1");
  });

  it("the CLI refuses a malformed CIDR for serve and gateway", () => {
    const serve = (...args: string[]) => serveOptionsFrom(parseFlags("serve", args, serveFlagSpecs).values);
    const gateway = (...args: string[]) => gatewayOptionsFrom(parseFlags("gateway", ["--upstream", "http://127.0.0.1:3030", ...args], gatewayFlagSpecs).values);
    expect(serve("--trust-proxy", "10.0.0.0/8", "--trust-proxy", "fd00::/8").trustProxy).toEqual(["10.0.0.0/8", "fd00::/8"]);
    expect(gateway("--trust-proxy", "192.168.1.1").trustProxy).toEqual(["192.168.1.1"]);
    for (const bad of ["10.0.0.0/33", "10.0.0/8", "lb.internal", "fd00::/129", "10.0.0.0/8/1", "10.0.0.0/"]) {
      expect(() => serve("--trust-proxy", bad)).toThrow(/--trust-proxy must be an IPv4 or IPv6 CIDR/);
      expect(() => gateway("--trust-proxy", bad)).toThrow(/--trust-proxy must be an IPv4 or IPv6 CIDR/);
    }
  });
});
