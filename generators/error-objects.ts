// Ajv's standalone code spells out every error object in full,
// `{instancePath, schemaPath: "...", keyword: "...", params: {...}, message: "...", schema: ...,
// parentSchema: ..., data}`: about 4 000 of them, half of the minified JSON-RPC module. Each one
// becomes a call of one shared function that builds the same object (same keys, same order, same
// values: the arguments are the property values, evaluated in the same order), so the errors
// users see are unchanged and the module is ~270 KB smaller.

import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

// typescript is CommonJS with `export =` typings; require() it rather than rely on interop flags.
const ts = createRequire(import.meta.url)("typescript") as typeof TypeScript;

/** The keys of an Ajv error object compiled with `verbose: true` and messages on, in Ajv's order. */
const ERROR_KEYS = ["instancePath", "schemaPath", "keyword", "params", "message", "schema", "parentSchema", "data"];

export const ERROR_FUNCTION_NAME = "ajvError";

/** The shared builder, emitted once into the compiled module. */
export const ERROR_FUNCTION_SOURCE = `/** An Ajv error object: the keys and order of Ajv's own literal. */
function ${ERROR_FUNCTION_NAME}(${ERROR_KEYS.join(", ")}) {
  return { ${ERROR_KEYS.join(", ")} };
}`;

/**
 * Rewrites every object literal with exactly Ajv's error keys, in Ajv's order, into a call of
 * ERROR_FUNCTION_NAME. Any other shape (e.g. an error carrying `propertyName`) is left as is.
 */
export function callErrorObjects(code: string): string {
  const source = ts.createSourceFile("standalone.js", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: TypeScript.Node): void => {
    const args = ts.isObjectLiteralExpression(node) ? errorArguments(node) : undefined;
    if (args !== undefined) {
      edits.push({ start: node.getStart(source), end: node.end, text: `${ERROR_FUNCTION_NAME}(${args.join(", ")})` });
      return; // an error object holds no other error object
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = code;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;

  function errorArguments(node: TypeScript.ObjectLiteralExpression): string[] | undefined {
    if (node.properties.length !== ERROR_KEYS.length) return undefined;
    const args: string[] = [];
    for (const [i, property] of node.properties.entries()) {
      if (property.name === undefined || !ts.isIdentifier(property.name) || property.name.text !== ERROR_KEYS[i]) return undefined;
      if (ts.isShorthandPropertyAssignment(property)) args.push(property.name.text);
      else if (ts.isPropertyAssignment(property)) args.push(property.initializer.getText(source));
      else return undefined;
    }
    return args;
  }
}
