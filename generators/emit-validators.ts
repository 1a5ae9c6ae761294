// generated/rpc/validators.compiled.ts: Ajv standalone code, compiled at generate time.
// generated/rpc/validators.ts: the typed tables the server and tests import.
//
// Ajv's standalone output calls require() even in ESM mode, so each require("x") becomes a
// default import of "x.js" (the runtime helpers are CommonJS; their module.exports is the
// default export). The compiled file is plain JavaScript, hence `// @ts-nocheck`.

import standaloneModule from "ajv/dist/standalone/index.js";
import type { OpenRpcDocument } from "./openrpc-model.js";
import type { MethodModel } from "./method-model.js";
import { createRpcAjv, standaloneExportNames } from "./ajv.js";
import { identifier } from "./names.js";
import { render } from "./templates.js";

// The module is CommonJS (`module.exports = fn`, plus `exports.default = fn`).
const standaloneCode = standaloneModule.default;

export const COMPILED_MODULE = "validators.compiled";

/**
 * Turns Ajv's CommonJS-flavoured standalone output into an ES module body plus imports.
 * Each `require("x")` becomes a namespace import of "x.js" passed through `cjsModule`, which
 * hands back the CommonJS `module.exports` whether the loader exposes it as the namespace's
 * default (Node) or unwraps `exports.default` itself (Vite/vitest, bundlers).
 */
export function esmFromStandalone(code: string): { imports: string[]; bindings: string[]; body: string } {
  const modules: string[] = [];
  const body = code
    .replace(/^"use strict";\s*/, "")
    .replace(/require\(("[^"]+")\)/g, (_match, literal: string) => {
      const specifier = JSON.parse(literal) as string;
      let index = modules.indexOf(specifier);
      if (index < 0) index = modules.push(specifier) - 1;
      return `ajvRuntime${index}`;
    });
  const imports = modules.map((specifier, i) => {
    const file = specifier.endsWith(".js") ? specifier : `${specifier}.js`;
    return `import * as ajvRuntimeNs${i} from ${JSON.stringify(file)};`;
  });
  const bindings = modules.map((_, i) => `const ajvRuntime${i} = cjsModule(ajvRuntimeNs${i});`);
  return { imports, bindings, body };
}

export function emitValidators(
  doc: OpenRpcDocument,
  models: MethodModel[],
  banner: string,
): { compiled: string; typed: string } {
  const { ajv, ids } = createRpcAjv(doc, models, { allErrors: false, standalone: true });
  const exportNames = standaloneExportNames(ids);
  const { imports, bindings, body } = esmFromStandalone(standaloneCode(ajv, exportNames));
  const compiled = render("validators.compiled.ts", { banner, imports, bindings, body });
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
