// generated/*/validators.compiled.js and .d.ts: Ajv standalone code as a minified ES module plus
// its declarations. Shared by the JSON-RPC (emit-validators.ts) and REST (emit-rest-validators.ts)
// emitters.
//
// The standalone code is several MB of formatted source; shipped as TypeScript it was re-printed
// by tsc into dist/ and parsed at every start. esbuild minifies it here, at generate time, so the
// committed file is what runs (tsx, vitest and dist/ alike: scripts/copy-compiled-validators.mjs
// copies it after tsc) and `generate --check` sees any drift. Minifying renames locals only:
// every string, property name and object shape survives, and the error objects are built by one
// shared function (error-objects.ts) with Ajv's keys and values, so the Ajv errors
// (instancePath, schemaPath, keyword, params, message, schema, parentSchema, data) are the ones
// the in-memory compile produces (compiled-validators.test.ts compares them).

import standaloneModule from "ajv/dist/standalone/index.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { transform } from "esbuild";
import { ERROR_FUNCTION_SOURCE, callErrorObjects } from "./error-objects.js";
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

/**
 * Minifies an ES module. The options are pinned and esbuild's version is exact in package.json,
 * so the output is byte-for-byte reproducible. `banner` (comment lines) goes on top.
 */
export async function minifyModule(source: string, banner: string): Promise<string> {
  const { code } = await transform(source, {
    loader: "js",
    format: "esm",
    target: "es2022",
    minify: true,
    treeShaking: true,
    legalComments: "none",
    charset: "ascii",
  });
  return `${banner}\n${code}`;
}

/**
 * What each compiled validator guards: the TypeScript type of the value it accepts (export name →
 * type expression, e.g. `RpcMethods["block"]["params"]`), and the type-only imports those
 * expressions need.
 */
export interface ValidatedTypes {
  readonly imports: readonly string[];
  readonly typeOf: Readonly<Record<string, string>>;
}

/**
 * The compiled module (`js`, minified) and its declarations (`dts`, to be formatted like the other
 * TypeScript outputs) for the schemas of `ajv` exported under `exportNames` (export name → id).
 * Each declaration is a type guard for the type `types` gives it: the schema and the type are
 * generated from the same spec, so a value the schema accepts has that type.
 */
export async function emitCompiledValidators(
  ajv: Ajv2020,
  exportNames: Record<string, string>,
  banner: string,
  types: ValidatedTypes,
): Promise<{ js: string; dts: string }> {
  const { imports, bindings, body } = esmFromStandalone(callErrorObjects(standaloneCode(ajv, exportNames)));
  const source = render("validators.compiled.js", { imports, bindings, errorFunction: ERROR_FUNCTION_SOURCE, body });
  const header = [
    banner,
    "// Ajv standalone validators (JSON Schema 2020-12, allErrors: false), minified by esbuild at generate",
    "// time. Types: ./validators.compiled.d.ts. Import them through ./validators.js, which types them.",
  ].join("\n");
  const js = await minifyModule(source, header);
  const declarations = Object.keys(exportNames)
    .sort()
    .map((name) => {
      const type = types.typeOf[name];
      if (type === undefined) throw new Error(`no type for the compiled validator ${name}`);
      return { name, type };
    });
  const dts = render("validators.compiled.d.ts", { banner, imports: types.imports, declarations });
  return { js, dts };
}
