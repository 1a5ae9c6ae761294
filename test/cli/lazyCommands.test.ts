import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { moduleCliNodeArgs, runCli, waitFor } from "./cliProcess.js";

const dir = mkdtempSync(join(tmpdir(), "shardkit-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The modules a `shardkit` run loaded (every URL it resolved), with its exit code. */
async function loadedBy(args: string[]): Promise<{ code: number | null; modules: string[] }> {
  const log = join(dir, `${args.join("_").replace(/\W/g, "-")}.log`);
  const proc = runCli(args, { cli: moduleCliNodeArgs, nodeArgs: ["--import", join(import.meta.dirname, "recordModules.mjs")], env: { ...process.env, SHARDKIT_MODULE_LOG: log } });
  const code = await proc.exited;
  return { code, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

/** The entry points that pull in the whole chain, server or gateway (flag parsing may use small modules of them). */
const heavy = (url: string) => /\/src\/(chain\/node|server\/startService|chain\/store\/LmdbChainStore|gateway\/startGateway)\.(js|ts)$/.test(url);

describe("shardkit loads the chain, the server and the gateway only for a command that runs them", () => {
  it.each([
    [["--version"], 0],
    [["--help"], 0],
    [["serve", "--help"], 0],
    [["serve", "--block-time", "-5"], 1],
    [["serve", "--log-level", "verbose"], 1],
    [["state", "help"], 0],
    [["keys", "--help"], 0],
    [["gateway", "--help"], 0],
  ])("%j answers without loading them", async (args, exitCode) => {
    const { code, modules } = await loadedBy(args);
    expect(code).toBe(exitCode);
    expect(modules.some((url) => url.includes("/cli/main."))).toBe(true);
    expect(modules.filter(heavy)).toEqual([]);
  });

  it("loads them for a command that needs the chain (serve --print-accounts)", async () => {
    const { code, modules } = await loadedBy(["serve", "--print-accounts", "--ephemeral"]);
    expect(code).toBe(0);
    expect(modules.filter(heavy).map((url) => url.replace(/.*\/src\//, ""))).toEqual(expect.arrayContaining([expect.stringMatching(/^chain\/node\./)]));
  });

  it("sandbox init loads none of them; sandbox run loads the chain and the JSON-RPC server, not the REST listener, the gateway or the OpenRPC document", async () => {
    const home = join(dir, "sandbox-home");
    const init = await loadedBy(["sandbox", "--home", home, "init"]);
    expect(init.code).toBe(0);
    expect(init.modules.filter(heavy)).toEqual([]);
    // Nor the other commands' modules: each command loads its own.
    expect(init.modules.filter((url) => /\/cli\/(serve|gateway|keys|state|generate)\w*\.(js|ts)$/.test(url))).toEqual([]);

    const log = join(dir, "sandbox-run.log");
    const run = runCli(["sandbox", "--home", home, "run", "--rpc-addr", "127.0.0.1:0"], {
      cli: moduleCliNodeArgs,
      nodeArgs: ["--import", join(import.meta.dirname, "recordModules.mjs")],
      env: { ...process.env, SHARDKIT_MODULE_LOG: log },
    });
    await waitFor(() => run.output().stdout, /shardkit sandbox: chain \S+ from .* on http:/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    const modules = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect([...new Set(modules.filter(heavy).map((url) => url.replace(/.*\/src\//, "").replace(/\.ts$/, ".js")))].sort()).toEqual(["chain/node.js", "chain/store/LmdbChainStore.js", "server/startService.js"]);
    // (The metrics' route labels use the small REST route table; the REST handlers, listener and validators stay unloaded.)
    const unused = /\/(src\/server\/rest\/handlers\.|src\/server\/http\/create(Service)?RestListener\.|src\/gateway\/|generated\/rest\/validators|generated\/openrpc\.json)/;
    expect(modules.filter((url) => unused.test(url))).toEqual([]);
  });
});
