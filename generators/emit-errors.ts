// generated/rpc/errors.ts: the error cause catalogue (error name, JSON-RPC code and message,
// HTTP status per cause), the type of each cause's `info` and of its legacy `data`.

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
    dataType: entry.dataSchema === undefined ? null : componentName(entry.dataSchema.$ref),
    description: entry.description,
  }));
  const typeImports = [
    ...new Set(causes.flatMap((c) => [c.infoType, c.dataType].filter((t): t is string => t !== null))),
  ].sort();
  return render("errors.ts", { banner, causes, typeImports });
}
