#!/usr/bin/env node
import * as nodeModule from "node:module";
import { UsageError } from "./flags.js";
import { packageVersion } from "./packageRoot.js";

// Node >= 22.1 keeps the compiled code of the modules loaded from here on in the OS temp dir, so a
// later start compiles little (near-workspaces starts `sandbox init` and `run` per worker). Node 20 has no such cache.
if ("enableCompileCache" in nodeModule && typeof nodeModule.enableCompileCache === "function") nodeModule.enableCompileCache();

const usage = `Usage: shardkit <command> [options]

Commands:
  serve              run a local NEAR-compatible JSON-RPC node and REST API on a dev chain
  gateway            JSON-RPC gateway in front of nearcore nodes (\`shardkit gateway --help\`)
  keys <action>      manage API keys: add, list, revoke, rotate; import a keys file into Redis
  sandbox <init|run> nearcore's near-sandbox CLI on shardkit, for near-workspaces (\`shardkit sandbox --help\`)
  sandbox-path       print the path of a near-sandbox launcher for NEAR_SANDBOX_BIN_PATH
  contract-test      check a deployment against the specs (\`shardkit contract-test --help\`)
  state dump         write a data dir's state as a nearcore genesis file (\`shardkit state help\`)
  generate [--check] regenerate generated/ from specs/ (development command of the repository)
  help [command]     show this help, or a command's

Options:
  -h, --help         show help (also after a command: shardkit serve --help)
  -v, --version      print the shardkit version

Run \`shardkit <command> --help\` for a command's options.
`;

/**
 * Each command's module, loaded only when that command runs or its help is asked for: a command
 * starts without compiling the others (`sandbox init` and `run` start once per near-workspaces worker).
 */
const commands: Record<string, () => Promise<{ run(args: string[]): void | Promise<void>; usage?: string }>> = {
  serve: async () => ({ run: (await import("./serveCommand.js")).serveCommand, usage: (await import("./serveOptions.js")).serveUsage }),
  gateway: async () => import("./gatewayCommand.js").then((m) => ({ run: m.gatewayCommand, usage: m.gatewayUsage })),
  keys: async () => import("./keysCommand.js").then((m) => ({ run: m.keysCommand, usage: m.keysUsage })),
  state: async () => import("./stateCommand.js").then((m) => ({ run: m.stateCommand, usage: m.stateUsage })),
  sandbox: async () => import("./sandboxCommand.js").then((m) => ({ run: m.sandboxCommand, usage: m.sandboxUsage })),
  "sandbox-path": async () => import("./sandboxPathCommand.js").then((m) => ({ run: m.sandboxPathCommand, usage: m.sandboxPathUsage })),
  // Its usage stays out of `help contract-test` (as before): the suite's module is large.
  "contract-test": async () => ({ run: (await import("./contractTestCommand.js")).contractTestCommand }),
  generate: async () => import("./generateCommand.js").then((m) => ({ run: m.generateCommand, usage: m.generateUsage })),
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const load = command === undefined || !Object.hasOwn(commands, command) ? undefined : commands[command];
  if (load !== undefined) return (await load()).run(rest);
  switch (command) {
    case "--version":
    case "-v":
    case "version":
      process.stdout.write(`shardkit ${packageVersion()}\n`);
      return;
    case undefined:
    case "--help":
    case "-h":
      process.stdout.write(usage);
      return;
    case "help": {
      const [topic] = rest;
      const loadTopic = topic === undefined || !Object.hasOwn(commands, topic) ? undefined : commands[topic];
      const topicUsage = loadTopic === undefined ? undefined : (await loadTopic()).usage;
      if (topic === undefined) process.stdout.write(usage);
      else if (topicUsage !== undefined) process.stdout.write(topicUsage);
      else throw new UsageError(`no help for unknown command ${JSON.stringify(topic)}\n\n${usage}`);
      return;
    }
    default:
      throw new UsageError(
        command.startsWith("-") ? `unknown option ${command}; options go after the command\n\n${usage}` : `unknown command ${JSON.stringify(command)}\n\n${usage}`,
      );
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`shardkit: ${error.message}`);
    if (error.command !== undefined) console.error(`Run \`shardkit ${error.command} --help\` for the options.`);
  } else {
    console.error(`shardkit: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
