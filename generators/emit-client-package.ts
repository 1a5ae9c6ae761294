// The generated source of the client package (packages/client/src/generated/): the error
// classes, one per cause. The package imports everything else it needs (RPC types, error
// catalogue, client stubs, REST types) from generated/ itself, as it imports src/chain, so no
// generated file exists twice. `npm run generate` writes it and `--check` compares it.

import * as path from "node:path";
import type { OpenRpcDocument } from "./openrpc-model.js";
import { REPO_ROOT, OUTPUT_PATHS, type GeneratedFiles } from "./generate.js";
import { formatOutput } from "./format.js";
import { pascalCase } from "./names.js";
import { render } from "./templates.js";

export const DEFAULT_CLIENT_OUT_DIR = path.join(REPO_ROOT, "packages", "client", "src", "generated");

/** `UNKNOWN_ACCOUNT` → `UnknownAccountError`, `PARSE_ERROR` → `ParseError`. */
export function errorClassName(cause: string): string {
  return `${pascalCase(cause.toLowerCase().replace(/_error$/, ""))}Error`;
}

/** `errorsModule`: the import path of generated/rpc/errors.ts as seen from the error classes. */
export function emitClientErrors(doc: OpenRpcDocument, banner: string, errorsModule: string): string {
  const causes = Object.entries(doc["x-error-cause-catalog"]).map(([name, entry]) => ({
    name,
    className: errorClassName(name),
    description: `${name}: ${entry.description ?? ""}`.trim(),
  }));
  return render("client-errors.ts", { banner, causes, errorsModule });
}

/** The package's generated files, for a package at `clientOutDir` and generated/ at `outDir`. */
export async function generateClientPackage(
  doc: OpenRpcDocument,
  generated: GeneratedFiles,
  outDir: string,
  clientOutDir: string,
): Promise<GeneratedFiles> {
  const types = generated.get(OUTPUT_PATHS.types);
  if (types === undefined) throw new Error(`the client package needs generated/${OUTPUT_PATHS.types}, which was not generated`);
  const banner = types.split("\n")[0]!;
  const errorsPath = path.join(outDir, OUTPUT_PATHS.errors).replace(/\.ts$/, ".js");
  const errorsModule = path.relative(path.join(clientOutDir, "rpc"), errorsPath).split(path.sep).join("/");
  return new Map([["rpc/errorClasses.ts", await formatOutput(emitClientErrors(doc, banner, errorsModule), "typescript")]]);
}
