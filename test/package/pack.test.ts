import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSyntheticGenesis } from "../../src/chain/genesis/writeSyntheticGenesis.js";
import { repoRoot, runCli, startServe, stop } from "../cli/cliProcess.js";

interface PackReport {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  type: string;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; import: string }>;
  dependencies: Record<string, string>;
};

/**
 * Size budget of the published package: a tripwire for files that should not ship. Measured
 * 2026-11-27 once the Ajv standalone validators were generated as minified JavaScript (they
 * were 8.8 MB of tsc output): 1.074 MB packed, 6.19 MB unpacked, 820 files (a .js and a .d.ts
 * per module); 1.37 MB of it is the JSON-RPC validators (refs inlined). 2026-12-01 (issue 28,
 * nearcore's typed view methods and two aliases: 11 modules, 8 docs pages): 914 files; on
 * main with the docs guides, 1.217 MB packed, 7.45 MB unpacked. Issue 30 (the `/v0` transaction
 * history: 5 routes, their request and response validators, 6 docs pages): 1.305 MB packed,
 * 8.09 MB unpacked, 976 files. 2026-12-02 (issue 31's fork mode and shardkit_reset, issue 27's
 * record codecs, the sandbox's lazy listeners, the forking guide): 1.407 MB packed.
 */
const BUDGET = { packedBytes: 1_500_000, unpackedBytes: 9_000_000, files: 1100 };

function pack(args: string[] = []): PackReport {
  // --ignore-scripts: pack what dist/ holds now (the build is the prepare step of npm ci).
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", ...args], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return (JSON.parse(out) as PackReport[])[0]!;
}

beforeAll(() => {
  // The packed dist/ must be the current sources' build (a no-op when it already is).
  execFileSync(process.execPath, [join(repoRoot, "scripts", "build-if-stale.mjs")], { cwd: repoRoot, stdio: "ignore" });
}, 240_000);

describe("npm package contents", () => {
  const report = () => pack(["--dry-run"]);

  it("ships only what users need: compiled code, types, published specs and docs, fixture contracts", () => {
    const paths = report().files.map((f) => f.path);
    const allowed = [
      /^package\.json$/,
      /^README\.md$/,
      /^dist\/cli\/[\w-]+\.js$/,
      /^dist\/src\/(client|proof)\/.+\.(js|d\.ts)$/,
      /^dist\/generated\/openrpc\.json$/,
      /^generated\/(openrpc|openapi)\.json$/,
      /^generated\/docs\/((rpc|rest|guides)\/)?[\w.-]+\.html$/,
      /^generated\/docs\/search-index\.js$/,
      /^contracts\/build\/[\w-]+\.wasm$/,
    ];
    expect(paths.filter((p) => !allowed.some((rule) => rule.test(p)))).toEqual([]);
    expect(paths.filter((p) => /\.map$|\.test\.|^test\/|^bench\/|^generators\/|^specs\/|__snapshots__|^src\//.test(p))).toEqual([]);
    for (const needed of [
      manifest.bin.shardkit!,
      "generated/openrpc.json",
      "generated/openapi.json",
      "generated/docs/index.html",
      "generated/docs/search-index.js",
      "generated/docs/rpc/query.html",
      "generated/docs/rest/accountFull.html",
      ...["ft", "kv", "nft", "relay", "staking-pool"].map((name) => `contracts/build/${name}.wasm`),
      ...Object.values(manifest.exports).flatMap((target) => (typeof target === "string" ? [target] : [target.types, target.import])).map((t) => t.replace(/^\.\//, "")),
    ]) {
      expect(paths).toContain(needed);
    }
  });

  it(`stays within its size budget (${BUDGET.packedBytes} B packed, ${BUDGET.unpackedBytes} B unpacked, ${BUDGET.files} files)`, () => {
    const { size, unpackedSize, entryCount } = report();
    expect(size).toBeLessThanOrEqual(BUDGET.packedBytes);
    expect(unpackedSize).toBeLessThanOrEqual(BUDGET.unpackedBytes);
    expect(entryCount).toBeLessThanOrEqual(BUDGET.files);
  });

  it("says it is ESM-only", () => {
    expect(manifest.type).toBe("module");
    expect(readFileSync(join(repoRoot, "README.md"), "utf8")).toMatch(/ESM-only/);
  });
});

describe("the packed package, installed in an empty project", () => {
  let project: string;
  let bin: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), "shardkit-install-"));
    const { filename } = pack(["--pack-destination", project]);
    const modules = join(project, "node_modules");
    mkdirSync(modules);
    execFileSync("tar", ["-xzf", join(project, filename), "-C", modules]);
    renameSync(join(modules, "package"), join(modules, "shardkit"));
    // The dependencies as an install would provide them (linked from this checkout: no network in tests).
    for (const dependency of Object.keys(manifest.dependencies)) {
      const target = join(modules, dependency);
      mkdirSync(join(target, ".."), { recursive: true });
      symlinkSync(join(repoRoot, "node_modules", dependency), target, "dir");
    }
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    bin = join(modules, "shardkit", manifest.bin.shardkit!);
  }, 120_000);
  const modules = () => join(project, "node_modules");
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it("prints its version and help", () => {
    const version = spawnSync(process.execPath, [bin, "--version"], { cwd: project, encoding: "utf8" });
    expect(version.stdout).toBe(`shardkit ${manifest.version}\n`);
    const help = spawnSync(process.execPath, [bin, "serve", "--help"], { cwd: project, encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--block-time MS");
  });

  it("sandbox-path writes a near-sandbox launcher inside the installed package that inits a home from an empty environment", async () => {
    const printed = spawnSync(process.execPath, [bin, "sandbox-path"], { cwd: project, encoding: "utf8" });
    expect(printed.status, printed.stderr).toBe(0);
    const launcher = printed.stdout.trim();
    expect(launcher).toBe(join(modules(), "shardkit", "dist", "sandbox", "near-sandbox"));
    const home = join(project, "sandbox-home");
    const init = spawnSync(launcher, ["--home", home, "init", "--fast"], { encoding: "utf8", env: {} });
    expect(init.status, init.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(home, "validator_key.json"), "utf8"))).toMatchObject({ account_id: "test.near" });
  });

  it("runs shardkit serve: dev genesis with its contracts, rpc.discover, REST; the client import works", async () => {
    const server = await startServe(["--block-time", "0", "--log-level", "warn"], { entry: bin, cwd: project });
    try {
      const post = async (method: string, params: unknown) =>
        (await (await fetch(server.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as { result: any };
      // The FT contract's wasm came from contracts/build in the package.
      const supply = await post("query", { request_type: "call_function", finality: "final", account_id: "ft.test.near", method_name: "ft_total_supply", args_base64: "e30=" });
      expect(JSON.parse(Buffer.from(supply.result.result as number[]).toString())).toBe((10n ** 27n).toString());
      const discover = await post("rpc.discover", []);
      expect(discover.result.openrpc).toMatch(/^1\./);
      expect(((await (await fetch(`${server.apiUrl}/v1/account/alice.test.near/full`)).json()) as { account_id: string }).account_id).toBe("alice.test.near");

      const script = join(project, "client.mjs");
      writeFileSync(
        script,
        `import { createRpcClient, httpTransport } from "shardkit/client";\n` +
          `const rpc = createRpcClient(httpTransport({ url: ${JSON.stringify(server.rpcUrl)} }));\n` +
          `const account = await rpc.query({ request_type: "view_account", finality: "final", account_id: "bob.test.near" });\n` +
          `console.log(account.amount);\n`,
      );
      const client = spawnSync(process.execPath, [script], { cwd: project, encoding: "utf8" });
      expect(client.stderr).toBe("");
      expect(BigInt(client.stdout.trim())).toBeGreaterThan(0n);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });

  it("loads a genesis file into a data dir (its sort and node-bucket worker threads run from the package's compiled code)", async () => {
    const genesis = join(project, "genesis.json");
    await writeSyntheticGenesis(genesis, { keys: 3_000, accountId: "big.test.near" });
    const server = await startServe(["--genesis", genesis, "--data-dir", join(project, "data"), "--block-time", "0", "--log-level", "warn"], { entry: bin, cwd: project });
    try {
      const page = (await (
        await fetch(server.rpcUrl, {
          method: "POST",
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "query", params: { request_type: "view_state", finality: "final", account_id: "big.test.near", prefix_base64: "", limit: 10 } }),
        })
      ).json()) as { result: { values: unknown[] } };
      expect(page.result.values).toHaveLength(10);
    } finally {
      expect(await stop(server)).toBe(0);
    }
    expect(server.output().stderr).toBe("");
  });

  it("generate says it is a development command of the repository", async () => {
    const proc = runCli(["generate"], { entry: bin, cwd: project });
    expect(await proc.exited).toBe(1);
    expect(proc.output().stderr).toMatch(/generate is a development command of the shardkit source repository/);
    expect(proc.output().stderr).not.toMatch(/Cannot find package|\n\s+at /);
    expect(existsSync(join(project, "node_modules", "shardkit", "generators"))).toBe(false);
  });
});
