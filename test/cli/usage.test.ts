import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gatewayUsage } from "../../src/cli/gatewayCommand.js";
import { serveFlagSpecs, serveUsage } from "../../src/cli/serveOptions.js";
import { USAGE_HELP_COLUMN } from "../../src/cli/usageLine.js";
import { repoRoot, runCli } from "./cliProcess.js";

async function cli(...args: string[]) {
  const proc = runCli(args);
  const code = await proc.exited;
  return { code, ...proc.output() };
}

const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

describe("shardkit help and version", () => {
  it.each([[["--help"]], [["-h"]], [["help"]], [[]]])("%j prints the top-level usage listing every command", async (args) => {
    const r = await cli(...args);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^Usage: shardkit <command> \[options\]/);
    for (const command of ["serve", "keys <action>", "generate", "help [command]", "--version"]) expect(r.stdout).toContain(command);
    // Every keys action, import included (`shardkit keys import --keys F --redis URL`).
    expect(r.stdout).toMatch(/keys <action> .*add, list, revoke, rotate; import/);
  });

  it.each([
    ["serve", serveUsage],
    ["gateway", gatewayUsage],
  ])("%s --help starts every option's description in one column", (_command, text) => {
    const optionLines = text.split("\n").filter((line) => /^ {2}-/.test(line));
    expect(optionLines.length).toBeGreaterThan(10);
    for (const line of optionLines) expect(/^ {2}-\S.*? {2,}(?=\S)/.exec(line)?.[0].length, line).toBe(USAGE_HELP_COLUMN);
    // Continuation lines line up with the descriptions too.
    const continued = text.split("\n").filter((line) => /^ {3,}\S/.test(line));
    for (const line of continued) expect(line.length - line.trimStart().length, line).toBe(USAGE_HELP_COLUMN);
  });

  it.each([
    [["serve", "--help"], /^Usage: shardkit serve \[options\]/],
    [["serve", "-h"], /^Usage: shardkit serve \[options\]/],
    [["serve", "--block-time", "5", "--help"], /^Usage: shardkit serve \[options\]/],
    [["help", "serve"], /^Usage: shardkit serve \[options\]/],
    [["keys", "--help"], /^Usage: shardkit keys <add\|list\|revoke\|rotate>/],
    [["keys", "add", "-h"], /^Usage: shardkit keys <add\|list\|revoke\|rotate>/],
    [["help", "keys"], /^Usage: shardkit keys/],
    [["generate", "--help"], /^Usage: shardkit generate \[--check\]/],
    [["help", "generate"], /development command of the shardkit source repository/],
  ])("%j prints that command's usage and exits 0", async (args, usage) => {
    const r = await cli(...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(usage);
  });

  it("serve --help lists every flag serve accepts, with its default", async () => {
    const r = await cli("serve", "--help");
    for (const name of Object.keys(serveFlagSpecs)) expect(r.stdout).toContain(`--${name}`);
    expect(r.stdout).toMatch(/--block-time MS\s+milliseconds between blocks.*\(default 1000\)/);
    expect(r.stdout).toMatch(/--rpc-port PORT\s+.*\(default 3030\)/);
  });

  it.each([[["--version"]], [["-v"]], [["version"]]])("%j prints the package version", async (args) => {
    const r = await cli(...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`shardkit ${version}\n`);
  });

  it("the CLI reference (docs/cli.md) documents every serve flag", () => {
    const section = readFileSync(join(repoRoot, "docs", "cli.md"), "utf8");
    for (const name of Object.keys(serveFlagSpecs)) expect(section).toContain(`--${name}`);
  });
});

describe("shardkit refuses bad flags with a clear message, exit code 1 and no stack trace", () => {
  it.each([
    [["serve", "--block-time", "-5"], /--block-time must be an integer from 0 to 3600000, got "-5"/],
    [["serve", "--block-time=-5"], /--block-time must be an integer from 0 to 3600000, got "-5"/],
    [["serve", "--block-time", "1.5"], /--block-time must be an integer from 0 to 3600000, got "1.5"/],
    [["serve", "--block-time"], /--block-time needs a value/],
    [["serve", "--block-time", "--shards", "2"], /--block-time needs a value/],
    [["serve", "--shards", "2", "--shards", "3"], /--shards is given more than once/],
    [["serve", "--blocktime", "5"], /unknown option --blocktime for serve \(did you mean --block-time\?\)/],
    [["serve", "-x"], /unknown option -x for serve/],
    [["serve", "--ephemeral=yes"], /--ephemeral is a switch and takes no value/],
    [["serve", "extra"], /unexpected argument "extra" for serve/],
    [["serve", "--host", ""], /--host must not be empty/],
    [["serve", "--log-level", "verbose"], /--log-level must be one of error, warn, info, debug, got "verbose"/],
    [["serve", "--rpc-port", "http"], /--rpc-port must be an integer from 0 to 65535, got "http"/],
    [["serve", "--fork", "rpc.mainnet.near.org"], /--fork must be an http\(s\) URL, got "rpc.mainnet.near.org"/],
    [["serve", "--fork-block", "12"], /--fork-block needs --fork URL/],
    [["serve", "--fork", "http://127.0.0.1:9", "--fork-block", "latest"], /--fork-block must be a block height or a base58 block hash, got "latest"/],
    [["serve", "--fork", "http://127.0.0.1:9", "--genesis", "g.json"], /--fork continues the upstream's chain: it takes no --genesis/],
    [["serve", "--fork", "http://127.0.0.1:9", "--fork-rps", "0"], /--fork-rps must be an integer from 1 to 10000, got "0"/],
    [["keys", "list", "--file", "/tmp/k.json", "--nmae", "x"], /unknown option --nmae for keys \(did you mean --name\?\)/],
    [["keys", "add", "--file", "/tmp/k.json", "--name"], /--name needs a value/],
    [["generate", "--chek"], /unknown option --chek for generate \(did you mean --check\?\)/],
    [["--rpc-port", "1"], /unknown option --rpc-port; options go after the command/],
    [["help", "nope"], /no help for unknown command "nope"/],
  ])("%j", async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  });

  it("points to the command's --help after a flag mistake", async () => {
    const r = await cli("serve", "--block-time", "-5");
    expect(r.stderr).toContain("Run `shardkit serve --help` for the options.");
  });
});

describe("shardkit serve and gateway on a port they cannot take", () => {
  it.each([
    ["serve", ["--ephemeral", "--block-time", "0"], "--api-port"],
    ["gateway", ["--upstream", "http://127.0.0.1:9"], "--archival-port"],
  ])("%s names the port and its flag", async (command, flags, taken) => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const ports = { "--rpc-port": "0", "--archival-port": "0", "--api-port": "0", [taken]: String(port) };
      const r = await cli(command, ...flags, ...Object.entries(ports).flat());
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`shardkit: port ${port} (${taken}) on 127.0.0.1 is already in use; choose another, or 0 for any free port`);
      expect(r.stderr).toContain(`Run \`shardkit ${command} --help\` for the options.`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });
});
