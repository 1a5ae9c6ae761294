// The @shardkit/client examples of the README's tour, the clients guide (docs/clients.md) and the
// package's own README as written: type-checked with tsc --strict and run
// (through the workspace link node_modules/@shardkit/client and its "exports", as for a user)
// against a real `shardkit serve`; only the default ports and the secret key placeholder are
// replaced.

import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { repoRoot, startServe, stop, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { blockRunners, docBlocks, where } from "../readme/codeBlocks.js";
import { buildClientPackage } from "./clientPackage.js";

const run = promisify(execFile);
const blocks = docBlocks().filter(blockRunners.clientPackage.claims);
const tour = blocks.find((b) => b.file === "README.md")!;
const guide = blocks.filter((b) => b.file === "docs/clients.md");
const packageReadme = blocks.find((b) => b.file === "packages/client/README.md")!;
let server: CliProcess & ServeUrls;
let scratch: string;

const asWritten = (code: string) =>
  code
    .replaceAll("http://127.0.0.1:3030", server.rpcUrl)
    .replaceAll("http://127.0.0.1:3040", server.apiUrl)
    .replaceAll("<alice secret key>", devKeyPair("alice.test.near").secretKeyString);

beforeAll(async () => {
  buildClientPackage();
  server = await startServe(["--block-time", "100", "--log-level", "warn"]);
  // Inside the repository, so `@shardkit/client` resolves through node_modules as for a user.
  scratch = await mkdtemp(join(repoRoot, "test", "client", ".tmp-readme-"));
}, 120_000);
afterAll(async () => {
  if (server) expect(await stop(server)).toBe(0);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("README, clients-guide and package README @shardkit/client examples", () => {
  it("finds the tour's example, the guide's JSON-RPC and REST examples and the package README's, and no other", () => {
    expect(blocks.map(where)).toEqual([where(tour), ...guide.map(where), where(packageReadme)]);
    expect(packageReadme.code).toContain('from "@shardkit/client"');
    expect(tour.code).toContain('from "@shardkit/client/jsonrpc"');
    expect(guide.map((b) => b.code.match(/from "(@shardkit\/client\/\w+)"/)?.[1])).toEqual(["@shardkit/client/jsonrpc", "@shardkit/client/rest"]);
  });

  it("type-check with tsc --strict against the built package", async () => {
    const files = await Promise.all(
      blocks.map(async (block) => {
        const file = join(scratch, `typed-${block.file.replace(/\W/g, "-")}-${block.line}.ts`);
        await writeFile(file, `${block.code}\nexport {};\n`);
        return file;
      }),
    );
    await writeFile(
      join(scratch, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [], noEmit: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }, files }),
    );
    const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", scratch], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
  }, 120_000); // a whole tsc run: ~10 s on a quiet machine, beyond 30 s at load 13

  it("the JSON-RPC example reads, pages, reports the unknown account and sends a transfer", async () => {
    const file = join(scratch, "jsonrpc.ts");
    await writeFile(file, asWritten(guide[0]!.code));
    const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, timeout: 60_000 });
    expect(stdout).toMatch(/^balance: \d+$/m);
    expect(stdout).toMatch(/^unknown: nobody\.test\.near$/m);
    expect(stdout).toMatch(/^kv\.test\.near entries: 2101$/m);
    expect(stdout).toMatch(/^transfer: \{"SuccessValue":""\}$/m);
  });

  it("the REST example reads an account", async () => {
    const file = join(scratch, "rest.ts");
    await writeFile(file, asWritten(guide[1]!.code));
    const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, timeout: 60_000 });
    expect(stdout.trim()).toBe("REST: alice.test.near");
  });

  it("the package README's example reads through the root entry: JSON-RPC, a typed error, REST", async () => {
    const file = join(scratch, "package-readme.ts");
    await writeFile(file, asWritten(packageReadme.code));
    const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, timeout: 60_000 });
    expect(stdout).toMatch(/^balance: \d+$/m);
    expect(stdout).toMatch(/^unknown: nobody\.test\.near$/m);
    expect(stdout).toMatch(/^REST: alice\.test\.near$/m);
  });

  it("the tour's example sends a transfer and reads the receiver", async () => {
    const file = join(scratch, "tour.ts");
    await writeFile(file, asWritten(tour.code));
    const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, timeout: 60_000 });
    expect(stdout).toMatch(/^transfer: \{"SuccessValue":""\}$/m);
    expect(stdout).toMatch(/^bob\.test\.near: \d{25,}$/m);
  });
});
