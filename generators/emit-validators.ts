// generated/rpc/validators.compiled.js (+ .d.ts): Ajv standalone code, compiled and minified at
// generate time (emit-compiled-validators.ts).
// generated/rpc/validators.ts: the typed tables the server and tests import.

import type { OpenRpcDocument } from "./openrpc-model.js";
import type { MethodModel } from "./method-model.js";
import { createRpcAjv, standaloneExportNames, type CompiledSchemaIds } from "./ajv.js";
import { COMPILED_MODULE, emitCompiledValidators, type ValidatedTypes } from "./emit-compiled-validators.js";
import { identifier } from "./names.js";
import { render } from "./templates.js";

export async function emitValidators(
  doc: OpenRpcDocument,
  models: MethodModel[],
  banner: string,
): Promise<{ compiled: { js: string; dts: string }; typed: string }> {
  const { ajv, ids } = createRpcAjv(doc, models, { allErrors: false, standalone: true });
  const compiled = await emitCompiledValidators(ajv, standaloneExportNames(ids), banner, validatedTypes(ids));
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

/**
 * The type each RPC validator guards, under the export names of `standaloneExportNames`: a
 * method's params and result as `RpcMethods` declares them, a cause's `info` and structured `data`
 * as `RpcErrorCauseInfo` and `RpcErrorCauseData` do.
 */
function validatedTypes(ids: CompiledSchemaIds): ValidatedTypes {
  const typeOf: Record<string, string> = {};
  for (const method of Object.keys(ids.params)) typeOf[`params_${identifier(method)}`] = `RpcMethods[${JSON.stringify(method)}]["params"]`;
  for (const method of Object.keys(ids.result)) typeOf[`result_${identifier(method)}`] = `RpcMethods[${JSON.stringify(method)}]["result"]`;
  for (const cause of Object.keys(ids.info)) typeOf[`info_${identifier(cause)}`] = `RpcErrorCauseInfo[${JSON.stringify(cause)}]`;
  for (const cause of Object.keys(ids.data)) typeOf[`data_${identifier(cause)}`] = `RpcErrorCauseData[${JSON.stringify(cause)}]`;
  return {
    imports: ['import type { RpcMethods } from "./methods.js";', 'import type { RpcErrorCauseData, RpcErrorCauseInfo } from "./errors.js";'],
    typeOf,
  };
}
