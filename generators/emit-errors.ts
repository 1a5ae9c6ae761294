// generated/rpc/errors.ts: the error cause catalogue (error name, JSON-RPC code and message,
// HTTP status per cause) and the type of each cause's `info`.

import type { OpenRpcDocument } from "./openrpc-model.js";
import { componentName } from "./schema.js";
import { render } from "./templates.js";

export function emitErrors(doc: OpenRpcDocument, banner: string): string {
  const causes = Object.entries(doc["x-error-cause-catalog"]).map(([name, entry]) => ({
    name,
    error: entry.error,
    code: entry.code,
    message: entry.message,
    httpStatus: entry.httpStatus,
    infoType: entry.info === null ? null : componentName(entry.info.$ref),
    description: entry.description,
  }));
  const infoImports = [...new Set(causes.flatMap((c) => (c.infoType ? [c.infoType] : [])))].sort();
  return render("errors.ts", { banner, causes, infoImports });
}
