import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot } from "../cli/cliProcess.js";
import { blockRunners, docBlock } from "../readme/codeBlocks.js";

// The near-workspaces blocks of docs/dev-chain.md, run as a user would: the shell lines set the
// variables (with `npx shardkit` standing for this checkout's CLI), then the example runs with them.
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
const claims = blockRunners.nearWorkspaces.claims;

describe("docs: near-workspaces on shardkit", { timeout: 60_000 }, () => {
  it("the shell lines point NEAR_SANDBOX_BIN_PATH at an executable near-sandbox and NEAR_SANDBOX_BINARY_PATH at its directory; the example runs with them", () => {
    const setup = docBlock((b) => b.lang === "sh" && claims(b));
    const shardkit = [process.execPath, ...cliNodeArgs].map(quote).join(" ");
    const script = `${setup.code.replaceAll("npx shardkit", shardkit)}\nprintf '%s\\n%s\\n' "$NEAR_SANDBOX_BIN_PATH" "$NEAR_SANDBOX_BINARY_PATH"`;
    const shell = spawnSync("bash", ["-c", script], { cwd: repoRoot, encoding: "utf8" });
    expect(shell.status, shell.stderr).toBe(0);
    const [binPath, binaryPath] = shell.stdout.trim().split("\n");
    expect(binPath).toMatch(/\/near-sandbox$/);
    accessSync(binPath!, constants.X_OK);
    expect(binaryPath).toBe(dirname(binPath!));

    const example = docBlock((b) => b.lang === "ts" && claims(b));
    // Under node_modules, so that the example's `near-workspaces` resolves as in a user's project.
    const dir = join(repoRoot, "node_modules", ".cache", "shardkit-docs-examples");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "nearWorkspaces.mts");
    writeFileSync(file, example.code);
    const run = spawnSync(process.execPath, ["--import", "tsx", file], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, NEAR_SANDBOX_BIN_PATH: binPath, NEAR_SANDBOX_BINARY_PATH: binaryPath },
      timeout: 50_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("alice: 10000000000000000000000000");
  });
});
