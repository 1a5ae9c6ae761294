// The generated source of the client package (packages/client/src/generated/): the error
// classes, one per cause, and the package's own copies of the generated files it is built from
// (RPC types, error catalogue, client stubs, REST types), so the package compiles alone and
// imports nothing across its boundary. `npm run generate` writes them and `--check` compares them.

import * as path from "node:path";
import type { OpenRpcDocument } from "./openrpc-model.js";
import { REPO_ROOT, OUTPUT_PATHS, REST_OUTPUT_PATHS, type GeneratedFiles } from "./generate.js";
import { formatOutput } from "./format.js";
import { pascalCase } from "./names.js";
import { render } from "./templates.js";

export const DEFAULT_CLIENT_OUT_DIR = path.join(REPO_ROOT, "packages", "client", "src", "generated");

/** `UNKNOWN_ACCOUNT` → `UnknownAccountError`, `PARSE_ERROR` → `ParseError`. */
export function errorClassName(cause: string): string {
  return `${pascalCase(cause.toLowerCase().replace(/_error$/, ""))}Error`;
}

export function emitClientErrors(doc: OpenRpcDocument, banner: string): string {
  const causes = Object.entries(doc["x-error-cause-catalog"]).map(([name, entry]) => ({
    name,
    className: errorClassName(name),
    description: `${name}: ${entry.description ?? ""}`.trim(),
  }));
  return render("client-errors.ts", { banner, causes });
}

/** The generated/ files the package is built from, copied beside its error classes. */
const COPIED_PATHS = [OUTPUT_PATHS.types, OUTPUT_PATHS.errors, OUTPUT_PATHS.client, REST_OUTPUT_PATHS.types] as const;

/** The package's generated files, from the files `generate` wrote for generated/. */
export async function generateClientPackage(doc: OpenRpcDocument, generated: GeneratedFiles): Promise<GeneratedFiles> {
  const types = generated.get(OUTPUT_PATHS.types);
  if (types === undefined) throw new Error(`the client package needs generated/${OUTPUT_PATHS.types}, which was not generated`);
  const banner = types.split("\n")[0]!;
  const files: GeneratedFiles = new Map([["rpc/errorClasses.ts", await formatOutput(emitClientErrors(doc, banner), "typescript")]]);
  for (const copied of COPIED_PATHS) {
    const text = generated.get(copied);
    if (text !== undefined) files.set(copied, text); // REST types exist only for a spec root with openapi/
  }
  return files;
}
