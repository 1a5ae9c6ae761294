#!/usr/bin/env node
import { UsageError } from "./flags.js";
import { gatewayCommand, gatewayUsage } from "./gatewayCommand.js";
import { generateCommand, generateUsage } from "./generateCommand.js";
import { keysCommand, keysUsage } from "./keysCommand.js";
import { stateCommand, stateUsage } from "./stateCommand.js";
import { packageVersion } from "./packageRoot.js";
import { serveUsage } from "./serveOptions.js";
import { sandboxCommand, sandboxUsage } from "./sandboxCommand.js";
import { sandboxPathCommand, sandboxPathUsage } from "./sandboxPathCommand.js";

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

const commandUsage: Record<string, string> = { serve: serveUsage, gateway: gatewayUsage, keys: keysUsage, state: stateUsage, generate: generateUsage, sandbox: sandboxUsage, "sandbox-path": sandboxPathUsage };

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    // Commands that load the chain or the server are imported when run: usage, version and flag
    // errors answer without loading them.
    case "serve":
      return (await import("./serveCommand.js")).serveCommand(rest);
    case "gateway":
      return gatewayCommand(rest);
    case "keys":
      return keysCommand(rest);
    case "state":
      return stateCommand(rest);
    case "sandbox":
      return sandboxCommand(rest);
    case "sandbox-path":
      return sandboxPathCommand(rest);
    case "contract-test":
      return (await import("./contractTestCommand.js")).contractTestCommand(rest);
    case "generate":
      return generateCommand(rest);
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
      if (topic === undefined) process.stdout.write(usage);
      else if (commandUsage[topic] !== undefined) process.stdout.write(commandUsage[topic]);
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
