// @shardkit/client as a user gets it: `npm pack`, installed from the tarball into an empty
// project (offline: its dependencies are this checkout's installed copies, packed), type-checked with
// `tsc --strict` against a consumer file through the package's "exports", imported by Node, and
// held to the size budget the clients guide states.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../cli/cliProcess.js";
import { blockRunners, docBlock } from "../readme/codeBlocks.js";
import { buildClientPackage, bundleForBrowser, entryPoints, packageDir } from "./clientPackage.js";

/** The budget, as the clients guide (docs/clients.md) states it (checked below). */
export const SIZE_BUDGET = {
  /** npm pack tarball. */
  packedKiB: 128,
  /** esbuild browser bundle of each entry point, minified then gzipped, dependencies included. */
  jsonrpcGzipKiB: 40,
  restGzipKiB: 6,
} as const;

interface PackReport {
  filename: string;
  size: number;
  files: { path: string }[];
}

const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
  name: string;
  exports: Record<string, string | { types: string; import: string }>;
};

let project: string;
let report: PackReport;

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Where Node would find `name` from `fromDir` (its own node_modules, then each parent's). */
function installedDir(fromDir: string, name: string): string {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === dirname(dir)) throw new Error(`${name} is not installed above ${fromDir}`);
  }
}

/**
 * The client's runtime dependency closure as this checkout has it installed, packed into
 * `into`, as npm overrides that point every package of it at its tarball: installed with the
 * client's tarball, they satisfy its dependencies without any registry metadata (the npm
 * cache `npm ci` fills holds no full packuments, which an offline `npm install` asks for:
 * ENOTCACHED on a fresh machine). A package the closure holds in two versions (@noble/hashes 1
 * for the client, 2 for the primitives) is overridden to the first version met, and a package
 * that depends on the other one overrides it for its own subtree.
 */
function packDependencies(into: string): Record<string, string | Record<string, string>> {
  const dirs = new Map<string, string>(); // name@version -> installed dir
  const uses: { dependent: string; name: string; version: string }[] = [];
  const visit = (fromDir: string): void => {
    const manifest = JSON.parse(readFileSync(join(fromDir, "package.json"), "utf8")) as { name: string; version: string; dependencies?: Record<string, string> };
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      const dir = installedDir(fromDir, name);
      const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string };
      uses.push({ dependent: `${manifest.name}@${manifest.version}`, name, version });
      if (dirs.has(`${name}@${version}`)) continue;
      dirs.set(`${name}@${version}`, dir);
      visit(dir);
    }
  };
  visit(packageDir);
  const packed = JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", into, ...dirs.values()], into)) as PackReport[];
  const fileOf = new Map([...dirs.keys()].map((key, i) => [key, `file:${join(into, packed[i]!.filename)}`]));
  const top = new Map<string, string>(); // name -> the version met first
  for (const key of dirs.keys()) {
    const at = key.lastIndexOf("@");
    if (!top.has(key.slice(0, at))) top.set(key.slice(0, at), key.slice(at + 1));
  }
  const overrides: Record<string, string | Record<string, string>> = {};
  for (const [name, version] of top) {
    const own = fileOf.get(`${name}@${version}`)!;
    const nested = uses.filter((u) => u.dependent === `${name}@${version}` && top.get(u.name) !== u.version);
    overrides[name] = nested.length === 0 ? own : { ".": own, ...Object.fromEntries(nested.map((u) => [u.name, fileOf.get(`${u.name}@${u.version}`)!])) };
  }
  return overrides;
}

beforeAll(() => {
  buildClientPackage();
  project = mkdtempSync(join(tmpdir(), "shardkit-client-consumer-"));
  report = (JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", project], packageDir)) as PackReport[])[0]!;
  const overrides = packDependencies(mkdtempSync(join(project, "deps-")));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", overrides }));
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", join(project, report.filename)], project);
}, 240_000);
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the packed @shardkit/client", () => {
  it("is packed and installed as the clients guide says (docs/clients.md)", () => {
    const block = docBlock(blockRunners.clientPack.claims);
    const commands = block.code.split("\n").map((line) => line.replace(/#.*/, "").trim());
    // This test runs the same two steps: npm pack in the workspace, npm install of the tarball.
    expect(commands).toEqual(["npm pack -w @shardkit/client", `npm install ./${report.filename}`]);
  });

  it("ships compiled JS, declarations and its README only, including every export target, built from its own sources", () => {
    const paths = report.files.map((f) => f.path);
    expect(paths.filter((p) => !/^(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/.test(p))).toEqual([]);
    expect(paths).toContain("README.md");
    // Compiled from packages/client/src alone (rootDir src): nothing nests as dist/packages/... or dist/src/...
    expect(paths.filter((p) => /^dist\/(packages|src)\//.test(p))).toEqual([]);
    for (const target of Object.values(manifest.exports)) {
      for (const file of typeof target === "string" ? [target] : [target.types, target.import]) {
        if (!file.endsWith("package.json")) expect(paths).toContain(file.replace(/^\.\//, ""));
      }
    }
    // The shared node files that hash with node:crypto stay out.
    expect(paths.filter((p) => /sha256|verifySignature|transactionCodec/.test(p))).toEqual([]);
  });

  it("type-checks a consumer with tsc --strict through its exports, and rejects wrong calls", () => {
    writeFileSync(
      join(project, "consumer.ts"),
      `import { jsonRpcClient, actions, keyPairFromString, transactionSender, viewStatePages, UnknownAccountError, isRpcError, type ViewAccountResult, type QueryErrorResult, type ViewAccessKeyResult } from "@shardkit/client/jsonrpc";
import { restClient } from "@shardkit/client/rest";
import { jsonRpcClient as rootClient, restClient as rootRest, UnknownBlockError } from "@shardkit/client";

export async function main(url: string, apiUrl: string, secret: string): Promise<string> {
  const rpc = jsonRpcClient({ url });
  const account: ViewAccountResult = await rpc.query({ request_type: "view_account", finality: "final", account_id: "alice.near" });
  const key: ViewAccessKeyResult | QueryErrorResult = await rpc.query({ request_type: "view_access_key", finality: "final", account_id: "alice.near", public_key: "ed25519:x" });
  // @ts-expect-error a view_state result is not a view_account result
  const wrong: ViewAccountResult = await rpc.query({ request_type: "view_state", finality: "final", account_id: "alice.near", prefix_base64: "" });
  for await (const page of viewStatePages(rpc, { finality: "final", account_id: "kv.near", prefix_base64: "" })) void page.values.length;
  const sender = transactionSender({ rpc, signerId: "alice.near", signer: keyPairFromString(secret) });
  await sender.sendAndWait("bob.near", [actions.transfer(1n)]);
  try {
    await rpc.block({ finality: "final" });
  } catch (error) {
    if (error instanceof UnknownAccountError) return error.info.requested_account_id;
    if (isRpcError(error, "UNKNOWN_BLOCK")) return error.info.block_reference === undefined ? "" : "x";
  }
  const api = restClient({ baseUrl: apiUrl });
  const { data } = await api.GET("/v1/account/{account_id}/full", { params: { path: { account_id: "alice.near" } } });
  void wrong; void key; void rootClient({ url }); void rootRest({ baseUrl: apiUrl }); void UnknownBlockError;
  return account.amount + (data?.account_id ?? "");
}
`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [], noEmit: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }, files: ["consumer.ts"] }),
    );
    const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", project], { cwd: project, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("imports in Node through its exports, and keeps its internals private", () => {
    const out = execFileSync(
      process.execPath,
      ["--input-type=module", "-e", `const j = await import("@shardkit/client/jsonrpc"); const r = await import("@shardkit/client/rest"); const c = await import("@shardkit/client"); console.log(typeof j.jsonRpcClient, typeof j.transactionSender, typeof r.restClient, Object.keys(j.rpcErrorCauses).length, c.jsonRpcClient === j.jsonRpcClient && c.restClient === r.restClient);`],
      { cwd: project, encoding: "utf8" },
    );
    expect(out.trim()).toMatch(/^function function function \d+ true$/);
    const internal = spawnSync(process.execPath, ["--input-type=module", "-e", `await import("@shardkit/client/dist/jsonrpc/keys.js")`], { cwd: project, encoding: "utf8" });
    expect(internal.stderr).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it(`stays within its size budget (${SIZE_BUDGET.packedKiB} KiB packed; browser bundles ${SIZE_BUDGET.jsonrpcGzipKiB} / ${SIZE_BUDGET.restGzipKiB} KiB gzipped)`, async () => {
    expect(report.size).toBeLessThanOrEqual(SIZE_BUDGET.packedKiB * 1024);
    const jsonrpc = gzipSync((await bundleForBrowser({ jsonrpc: entryPoints.jsonrpc })).code).length;
    const rest = gzipSync((await bundleForBrowser({ rest: entryPoints.rest })).code).length;
    expect(jsonrpc).toBeLessThanOrEqual(SIZE_BUDGET.jsonrpcGzipKiB * 1024);
    expect(rest).toBeLessThanOrEqual(SIZE_BUDGET.restGzipKiB * 1024);
    console.log(`@shardkit/client: packed ${report.size} B; browser bundles (min+gzip) jsonrpc ${jsonrpc} B, rest ${rest} B`);
    // The clients guide states the same budget.
    const readme = readFileSync(join(repoRoot, "docs", "clients.md"), "utf8");
    expect(readme).toContain(`| npm pack tarball | ${SIZE_BUDGET.packedKiB} KiB |`);
    expect(readme).toContain(`| \`@shardkit/client/jsonrpc\` browser bundle, min+gzip | ${SIZE_BUDGET.jsonrpcGzipKiB} KiB |`);
    expect(readme).toContain(`| \`@shardkit/client/rest\` browser bundle, min+gzip | ${SIZE_BUDGET.restGzipKiB} KiB |`);
  });
});
