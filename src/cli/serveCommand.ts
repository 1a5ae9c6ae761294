import { UsageError, parseFlags } from "./flags.js";
import { logLevelFrom, serveFlagSpecs, serveOptionsFrom, serveUsage } from "./serveOptions.js";

const wantsHelp = (args: readonly string[]) => args.includes("--help") || args.includes("-h");

/** `shardkit serve`: the dev chain with its JSON-RPC listeners and REST API, until a signal. */
export async function serveCommand(args: string[]): Promise<void> {
  if (wantsHelp(args)) {
    process.stdout.write(serveUsage);
    return;
  }
  const { values, positionals } = parseFlags("serve", args, serveFlagSpecs);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} for serve`, "serve");
  const options = serveOptionsFrom(values);
  const level = logLevelFrom(values);
  // The chain and the server are loaded only now: help and flag errors answer without them.
  const { printAccounts, runServe } = await import("./runServe.js");
  if (values["print-accounts"] === true) return printAccounts(options.chain);
  return runServe(options, level);
}
