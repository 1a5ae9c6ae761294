import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { builtCli, distIsFresh } from "../../scripts/distFreshness.mjs";

export const repoRoot = join(import.meta.dirname, "..", "..");
const cliSource = join(repoRoot, "src", "cli", "main.ts");

/**
 * Node arguments that run the `shardkit` command of these sources: the built CLI when dist/ is
 * their build (CI builds it in `npm ci`; it starts ~0.7 s faster than through tsx), otherwise
 * the sources through tsx (workspace packages from their sources too, by their "shardkit-source"
 * export condition), so a local run never tests a stale build.
 */
export const cliNodeArgs: readonly string[] = distIsFresh() ? [builtCli] : sourceCliNodeArgs();

/**
 * The same command one module per file: tsc's output (dist/src/cli/main.js) when dist/ is
 * fresh, else the sources. For tests about which modules a command loads; the bundle keeps
 * each lazy `import()` as a chunk of its own, so what is lazy here is lazy there.
 */
export const moduleCliNodeArgs: readonly string[] = distIsFresh() ? [join(repoRoot, "dist", "src", "cli", "main.js")] : sourceCliNodeArgs();

function sourceCliNodeArgs(): string[] {
  return ["--conditions=shardkit-source", "--import", "tsx", cliSource];
}

export interface CliProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
}

/** Runs the `shardkit` command (see cliNodeArgs) as a real child process; `nodeArgs` go to node before it. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; entry?: string; cli?: readonly string[]; cwd?: string; nodeArgs?: readonly string[] } = {}): CliProcess {
  const nodeArgs = options.entry === undefined ? (options.cli ?? cliNodeArgs) : [options.entry];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...nodeArgs, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: options.env ?? process.env,
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  return track(child);
}

/** util-linux `script`, which gives a child a pseudo-terminal as stdin/stdout/stderr. */
export const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Runs the `shardkit` command (see cliNodeArgs) on a pseudo-terminal (through `script`); `output().stdout`
 * is what the terminal showed. `stop()` works: `script` passes SIGTERM on to the command. SHELL is
 * pinned so the run does not depend on the caller's login shell (CI has none set).
 */
export function runCliOnTerminal(args: string[]): CliProcess {
  const command = ["exec", process.execPath, ...cliNodeArgs, ...args].map(shellQuote).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    stdio: ["pipe", "pipe", "pipe"],
    cwd: repoRoot,
    env: { ...process.env, SHELL: "/bin/sh" },
  });
  return track(child);
}

function track(child: ChildProcess): CliProcess {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

export async function waitFor(read: () => string, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  const started = Date.now();
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${pattern}; got:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ServeUrls {
  rpcUrl: string;
  archivalUrl: string;
  apiUrl: string;
}

/**
 * Starts `shardkit serve` on free ports and waits for its listener lines. The chain is in memory
 * (`--ephemeral`) unless the arguments name a `--data-dir`, so tests never resume each other's chain.
 */
export async function startServe(extraArgs: string[] = [], options: Parameters<typeof runCli>[1] = {}): Promise<CliProcess & ServeUrls> {
  const storage = extraArgs.some((a) => a === "--data-dir" || a.startsWith("--data-dir=") || a === "--ephemeral") ? [] : ["--ephemeral"];
  const proc = runCli(["serve", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", ...storage, ...extraArgs], options);
  const text = () => proc.output().stdout;
  try {
    const [, rpcUrl] = await waitFor(text, /regular RPC\s+(http:\/\/\S+)/);
    const [, archivalUrl] = await waitFor(text, /archival RPC\s+(http:\/\/\S+)/);
    const [, apiUrl] = await waitFor(text, /REST API\s+(http:\/\/\S+)\/v1/);
    return { ...proc, rpcUrl: rpcUrl!, archivalUrl: archivalUrl!, apiUrl: apiUrl! };
  } catch (error) {
    proc.child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\nstderr:\n${proc.output().stderr}`);
  }
}

/** SIGTERM and wait for the exit code. */
export async function stop(proc: CliProcess): Promise<number | null> {
  proc.child.kill("SIGTERM");
  return proc.exited;
}
