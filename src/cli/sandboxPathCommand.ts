import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { UsageError } from "./flags.js";
import { packageRoot } from "./packageRoot.js";

export const sandboxPathUsage = `Usage: shardkit sandbox-path

Prints the path of an executable named near-sandbox that runs \`shardkit sandbox\` with this Node:
what near-workspaces starts in place of nearcore's sandbox binary.

  export NEAR_SANDBOX_BIN_PATH=$(npx shardkit sandbox-path)      # near-workspaces (Rust)
  export NEAR_SANDBOX_BINARY_PATH=$(dirname $NEAR_SANDBOX_BIN_PATH)  # near-workspaces (JS) also

The launcher is a /bin/sh script naming node and the CLI by absolute path, so it also starts from
an empty environment (no PATH, no HOME), as near-workspaces runs it with NEAR_WORKSPACES_DEBUG.
`;

/** Shell-quotes one word for the launcher. */
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** The launcher's text: exec this node, with its flags (tsx in a checkout), on this CLI. */
export function sandboxLauncherScript(nodePath: string, nodeArgs: readonly string[]): string {
  return `#!/bin/sh\n# near-sandbox stand-in written by \`shardkit sandbox-path\`: nearcore's sandbox CLI on shardkit.\nexec ${[nodePath, ...nodeArgs].map(quote).join(" ")} sandbox "$@"\n`;
}

/**
 * Writes the launcher (again only when its text changed) beside the built CLI, under
 * <package>/dist/sandbox/near-sandbox, and returns its path.
 */
export function writeSandboxLauncher(nodePath: string, nodeArgs: readonly string[], dir = join(packageRoot(), "dist", "sandbox")): string {
  const path = join(dir, "near-sandbox");
  const text = sandboxLauncherScript(nodePath, nodeArgs);
  let current: string | undefined;
  try {
    current = readFileSync(path, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== text) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { mode: 0o755 });
  }
  return path;
}

/** `shardkit sandbox-path`: writes the launcher for the running node and CLI and prints its path. */
export function sandboxPathCommand(args: string[]): void {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(sandboxPathUsage);
    return;
  }
  if (args.length > 0) throw new UsageError(`sandbox-path takes no arguments, got ${JSON.stringify(args[0])}`, "sandbox-path");
  const script = process.argv[1];
  if (script === undefined) throw new Error("sandbox-path needs the path of the running shardkit script (process.argv[1])");
  const cli = realpathSync(script);
  // Loader flags (tsx in a checkout) are kept, with bare names resolved from here: the launcher may start in any directory.
  const nodeArgs = process.execArgv.map((arg, i) => (process.execArgv[i - 1] === "--import" && !arg.startsWith("file:") && !arg.startsWith("/") ? import.meta.resolve(arg) : arg));
  process.stdout.write(`${writeSandboxLauncher(process.execPath, [...nodeArgs, cli])}\n`);
}
