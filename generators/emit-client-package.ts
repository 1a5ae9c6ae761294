// The generated sources of the client package (packages/client/src/generated/): the RPC types,
// error catalogue and client stubs (the same emitters' output as generated/rpc/), the REST
// types for openapi-fetch (as generated/rest/types.ts), and the package-only error classes.
// `npm run generate` writes them and `--check` compares them, like generated/.

import * as path from "node:path";
import type { OpenRpcDocument } from "./openrpc-model.js";
import { REPO_ROOT, OUTPUT_PATHS, REST_OUTPUT_PATHS, type GeneratedFiles } from "./generate.js";
import { formatOutput } from "./format.js";
import { pascalCase } from "./names.js";
import { render } from "./templates.js";

export const DEFAULT_CLIENT_OUT_DIR = path.join(REPO_ROOT, "packages", "client", "src", "generated");

/** Package path ← generated/ path, for the files the package takes over unchanged. */
const SHARED = [
  ["rpc/types.ts", OUTPUT_PATHS.types],
  ["rpc/errors.ts", OUTPUT_PATHS.errors],
  ["rpc/client.ts", OUTPUT_PATHS.client],
  ["rest/types.ts", REST_OUTPUT_PATHS.types],
] as const;

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

export async function generateClientPackage(doc: OpenRpcDocument, generated: GeneratedFiles): Promise<GeneratedFiles> {
  const out: GeneratedFiles = new Map();
  for (const [target, source] of SHARED) {
    const content = generated.get(source);
    if (content === undefined) throw new Error(`the client package needs generated/${source}, which was not generated`);
    out.set(target, content);
  }
  const banner = generated.get(OUTPUT_PATHS.types)!.split("\n")[0]!;
  out.set("rpc/errorClasses.ts", await formatOutput(emitClientErrors(doc, banner), "typescript"));
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
