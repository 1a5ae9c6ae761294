// generated/rpc/validators.compiled.js (+ .d.ts): Ajv standalone code, compiled and minified at
// generate time (emit-compiled-validators.ts).
// generated/rpc/validators.ts: the typed tables the server and tests import.

import type { OpenRpcDocument } from "./openrpc-model.js";
import type { MethodModel } from "./method-model.js";
import { createRpcAjv, standaloneExportNames } from "./ajv.js";
import { COMPILED_MODULE, emitCompiledValidators } from "./emit-compiled-validators.js";
import { identifier } from "./names.js";
import { render } from "./templates.js";

export async function emitValidators(
  doc: OpenRpcDocument,
  models: MethodModel[],
  banner: string,
): Promise<{ compiled: { js: string; dts: string }; typed: string }> {
  const { ajv, ids } = createRpcAjv(doc, models, { allErrors: false, standalone: true });
  const compiled = await emitCompiledValidators(ajv, standaloneExportNames(ids), banner);
  const causes = Object.keys(doc["x-error-cause-catalog"]).map((cause) => ({
    name: cause,
    exportName: cause in ids.info ? `info_${identifier(cause)}` : null,
    dataExportName: cause in ids.data ? `data_${identifier(cause)}` : null,
  }));
  const typed = render("validators.ts", {
    banner,
    compiledModule: `./${COMPILED_MODULE}.js`,
    methods: models.map((m) => ({ name: m.name, id: identifier(m.name) })),
    causes,
  });
  return { compiled, typed };
}
