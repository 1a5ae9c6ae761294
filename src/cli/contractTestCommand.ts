import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import {
  DEFAULT_TIMEOUT_MS,
  formatJunit,
  formatResultLines,
  formatSummary,
  parseSignerFlag,
  runContractTests,
  type CheckResult,
  type ContractTestOptions,
} from "../contract-test/index.js";

export const contractTestUsage = `Usage: shardkit contract-test --rpc URL [options]

Checks a NEAR JSON-RPC / REST deployment against shardkit's specs: every method and route, the
behaviour rules, invalid inputs, and with the right flags auth and transactions. Read-only unless
--signer is given. Exit code 0 only when every check passes.

Options:
  --rpc URL            regular JSON-RPC endpoint (required)
  --archival URL       archival JSON-RPC endpoint (enables the retention checks)
  --api URL            REST API URL, with or without /v1 (enables the route checks)
  --api-key KEY        API key, sent as Authorization: Bearer (enables the auth checks)
  --signer A:KEY       account and ed25519 secret key: sends 1 yoctoNEAR transfers to itself
  --contract ACCOUNT   a contract account with state, for view_state, proofs and views
                       (default on shardkit: its ft.test.near fixture, marked [shardkit-only])
  --timeout-ms MS      deadline per request (default ${DEFAULT_TIMEOUT_MS})
  --report junit FILE  also write a JUnit XML report to FILE
`;

/** `shardkit contract-test`: runs the suite and prints a line per check. */
export async function contractTestCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      rpc: { type: "string" },
      archival: { type: "string" },
      api: { type: "string" },
      "api-key": { type: "string" },
      signer: { type: "string" },
      contract: { type: "string" },
      "timeout-ms": { type: "string" },
      report: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) {
    process.stdout.write(contractTestUsage);
    return;
  }
  if (values.rpc === undefined) throw new Error(`contract-test needs --rpc URL\n\n${contractTestUsage}`);
  let junitFile: string | undefined;
  if (values.report !== undefined) {
    if (values.report !== "junit" || positionals.length !== 1) throw new Error("--report takes a format and a file: --report junit FILE");
    junitFile = positionals[0];
  } else if (positionals.length > 0) {
    throw new Error(`unexpected argument ${JSON.stringify(positionals[0])}`);
  }
  const timeoutMs = values["timeout-ms"] === undefined ? undefined : Number(values["timeout-ms"]);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new Error("--timeout-ms must be a positive integer");
  for (const [flag, url] of [["--rpc", values.rpc], ["--archival", values.archival], ["--api", values.api]] as const) {
    if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) throw new Error(`${flag} must be an http(s) URL, got ${JSON.stringify(url)}`);
  }

  const progress = new ProgressDisplay(process.stdout.isTTY === true);
  const options: ContractTestOptions = {
    rpcUrl: values.rpc.replace(/\/+$/, ""),
    ...(values.archival !== undefined && { archivalUrl: values.archival.replace(/\/+$/, "") }),
    ...(values.api !== undefined && { apiUrl: values.api.replace(/\/+$/, "") }),
    ...(values["api-key"] !== undefined && { apiKey: values["api-key"] }),
    ...(values.signer !== undefined && { signer: parseSignerFlag(values.signer) }),
    ...(values.contract !== undefined && { contractAccount: values.contract }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    onResult: (result) => progress.add(result),
  };
  const report = await runContractTests(options);
  progress.finish(formatSummary(report));
  if (junitFile !== undefined) await writeFile(junitFile, formatJunit(report));
  process.exitCode = report.failed === 0 && report.passed > 0 ? 0 : 1;
}

/** On a terminal: one rewritten progress line, failures printed as they come. Otherwise: plain lines. */
class ProgressDisplay {
  private done = 0;
  private failed = 0;

  constructor(private readonly tty: boolean) {}

  add(result: CheckResult): void {
    this.done++;
    if (result.outcome === "fail") this.failed++;
    if (!this.tty) {
      process.stdout.write(`${formatResultLines(result).join("\n")}\n`);
      return;
    }
    process.stdout.write("\r\x1b[2K");
    if (result.outcome === "fail") process.stdout.write(`${formatResultLines(result).join("\n")}\n`);
    process.stdout.write(`[${this.done} checks, ${this.failed} failed] ${result.group} ${result.name}`.slice(0, (process.stdout.columns ?? 100) - 1));
  }

  finish(summary: string): void {
    if (this.tty) process.stdout.write("\r\x1b[2K");
    process.stdout.write(`${summary}\n`);
  }
}
