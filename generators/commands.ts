// The two command lines, as functions (main.ts and lint.ts only call them), so tests can run
// them in-process and read what they print.

import * as path from "node:path";
import { parseArgs } from "node:util";
import { assembleOpenRpc } from "./assemble.js";
import { compareWithDisk, describeReport, isClean, writeOutputs } from "./check.js";
import { DEFAULT_OUT_DIR, DEFAULT_SPEC_ROOT, generate, type GeneratedFiles } from "./generate.js";
import { DEFAULT_CLIENT_OUT_DIR, generateClientPackage } from "./emit-client-package.js";
import { lintOpenRpc } from "./lint-rules.js";
import { assembleOpenApi, hasOpenApi, operationModels } from "./openapi-assemble.js";
import { lintOpenApi } from "./openapi-lint-rules.js";

export interface Output {
  log(message: string): void;
  error(message: string): void;
}

const label = (dir: string) => path.relative(process.cwd(), dir) || ".";

/**
 * `generate [--check] [--spec dir] [--out dir] [--client-out dir]` → exit code. The client
 * package's sources go to --client-out (default packages/client/src/generated/ when --out is
 * not given either; none when only --out is, as for a fixture spec).
 */
export async function generateCommand(argv: string[], output: Output = console): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      check: { type: "boolean", default: false },
      spec: { type: "string", default: DEFAULT_SPEC_ROOT },
      out: { type: "string" },
      "client-out": { type: "string" },
    },
  });
  const specRoot = path.resolve(values.spec);
  const files = await generate(specRoot);
  const outDir = path.resolve(values.out ?? DEFAULT_OUT_DIR);
  const targets: [GeneratedFiles, string][] = [[files, outDir]];
  const clientOut = values["client-out"] ?? (values.out === undefined ? DEFAULT_CLIENT_OUT_DIR : undefined);
  if (clientOut !== undefined) {
    const clientOutDir = path.resolve(clientOut);
    targets.push([await generateClientPackage(await assembleOpenRpc(specRoot), files), clientOutDir]);
  }
  let code = 0;
  for (const [outFiles, outDir] of targets) {
    code = Math.max(code, values.check ? await checkOne(outFiles, outDir, output) : await writeOne(outFiles, outDir, output));
  }
  return code;
}

async function checkOne(files: GeneratedFiles, outDir: string, output: Output): Promise<number> {
  const report = await compareWithDisk(files, outDir);
  if (isClean(report)) {
    output.log(`generate --check: ${files.size} files in ${label(outDir)}/ are up to date`);
    return 0;
  }
  output.error(
    `generate --check: ${label(outDir)}/ is out of date; run \`npm run generate\`:\n${describeReport(report, label(outDir))}`,
  );
  return 1;
}

async function writeOne(files: GeneratedFiles, outDir: string, output: Output): Promise<number> {
  const report = await writeOutputs(files, outDir);
  const changes = describeReport(report, label(outDir))
    .replace(/stale: /g, "updated:")
    .replace(/missing:/g, "created:")
    .replace(/orphan: /g, "removed:");
  output.log(
    changes
      ? `generate: wrote ${label(outDir)}/\n${changes}`
      : `generate: ${files.size} files in ${label(outDir)}/ already up to date`,
  );
  return 0;
}

/** `lint:specs [--spec dir]` → exit code. */
export async function lintCommand(argv: string[], output: Output = console): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { spec: { type: "string", default: DEFAULT_SPEC_ROOT } },
  });
  const specRoot = path.resolve(values.spec);
  const doc = await assembleOpenRpc(specRoot);
  const { errors, notes } = lintOpenRpc(doc);
  for (const note of notes) output.log(`note: ${note}`);
  if (errors.length > 0) {
    output.error(
      `lint:specs: ${errors.length} problem(s) in ${label(specRoot)}/\n${errors.map((e) => `  - ${e}`).join("\n")}`,
    );
    return 1;
  }
  const examples = doc.methods.reduce((n, m) => n + (m.examples?.length ?? 0), 0);
  const causes = Object.keys(doc["x-error-cause-catalog"]).length;
  output.log(
    `lint:specs: ${label(specRoot)}/ OK (${doc.methods.length} methods, ${Object.keys(doc.components.schemas).length} schemas, ${examples} examples, ${causes} error causes)`,
  );
  return hasOpenApi(specRoot) ? lintRest(specRoot, output) : 0;
}

/** The REST half of `lint:specs`. */
async function lintRest(specRoot: string, output: Output): Promise<number> {
  const doc = await assembleOpenApi(specRoot);
  const { errors, notes } = await lintOpenApi(doc);
  for (const note of notes) output.log(`note: ${note}`);
  if (errors.length > 0) {
    output.error(
      `lint:specs: ${errors.length} problem(s) in ${label(specRoot)}/openapi/\n${errors.map((e) => `  - ${e}`).join("\n")}`,
    );
    return 1;
  }
  const operations = operationModels(doc);
  output.log(
    `lint:specs: ${label(specRoot)}/openapi/ OK (${operations.length} operations, ${Object.keys(doc.components.schemas).length} schemas)`,
  );
  return 0;
}

/** Runs a command as the process entry point: exit code 2 for crashes (bad YAML, bad refs...). */
export function runAsMain(command: (argv: string[]) => Promise<number>, name: string): void {
  command(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
