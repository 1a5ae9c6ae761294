// `shardkit gateway` command line: help lists every flag, mistakes exit 1 with a clear message,
// and the CLI reference (docs/cli.md) documents every flag.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gatewayFlagSpecs, gatewayOptionsFrom } from "../../src/cli/gatewayCommand.js";
import { UsageError } from "../../src/cli/flags.js";
import { repoRoot, runCli } from "../cli/cliProcess.js";

async function cli(...args: string[]) {
  const proc = runCli(args);
  const code = await proc.exited;
  return { code, ...proc.output() };
}

describe("shardkit gateway (command line)", { timeout: 120_000 }, () => {
  it("--help and `help gateway` list every flag with its default", async () => {
    for (const args of [["gateway", "--help"], ["help", "gateway"]]) {
      const r = await cli(...args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: shardkit gateway --upstream URL/);
      for (const name of Object.keys(gatewayFlagSpecs)) expect(r.stdout).toContain(`--${name}`);
      expect(r.stdout).toMatch(/--upstream-timeout MS\s+.*\(default 15000\)/);
    }
    expect((await cli("--help")).stdout).toMatch(/gateway\s+JSON-RPC gateway/);
  });

  it.each([
    [[], /--upstream URL is required/],
    [["--upstream", "localhost:3030"], /--upstream must be an http:\/\/ or https:\/\/ URL, got "localhost:3030"/],
    [["--upstream", "http://a:1", "--archival-upstream", "ftp://b"], /--archival-upstream must be an http:\/\/ or https:\/\/ URL/],
    [["--upstream", "http://a:1", "--upstream-timeout", "0"], /--upstream-timeout must be an integer from 1 to 600000, got "0"/],
    [["--upstream", "http://a:1", "--rpc-port", "70000"], /--rpc-port must be an integer from 0 to 65535/],
    [["--upstream", "http://a:1", "--log-level", "loud"], /--log-level must be one of error, warn, info, debug/],
    [["--upstream", "http://a:1", "--bogus"], /unknown option --bogus for gateway/],
  ])("refuses %j with exit code 1", async (args, message) => {
    const r = await cli("gateway", ...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/shardkit gateway --help/);
  });

  it("turns flags into startGateway options (repeated upstreams in order)", () => {
    const options = gatewayOptionsFrom({ upstream: ["http://a:3030", "https://b.example/key/abc"], "archival-upstream": ["http://c:3030"], "rpc-port": "0" });
    expect(options).toMatchObject({
      host: "127.0.0.1",
      rpcPort: 0,
      archivalPort: 3031,
      apiPort: 3040,
      upstreams: ["http://a:3030", "https://b.example/key/abc"],
      archivalUpstreams: ["http://c:3030"],
      upstreamTimeoutMs: 15_000,
      upstreamRetryMs: 5_000,
      probeIntervalMs: 2_000,
    });
    expect(() => gatewayOptionsFrom({ upstream: [] })).toThrow(UsageError);
  });

  it("the CLI reference (docs/cli.md) documents every gateway flag", () => {
    const section = readFileSync(join(repoRoot, "docs", "cli.md"), "utf8");
    for (const name of Object.keys(gatewayFlagSpecs)) expect(section).toContain(`--${name}`);
  });
});
