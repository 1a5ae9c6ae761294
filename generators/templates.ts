// Handlebars environment for the emitters: templates live in ./templates/<name>.hbs.
// Compiled with noEscape (we emit code, not HTML; the html helper escapes where needed) and
// strict (a missing field is an error, not an empty string).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as HandlebarsApi from "handlebars";
import { jsdoc } from "./schema-to-ts.js";

const TEMPLATE_DIR = new URL("./templates/", import.meta.url);

// handlebars is CommonJS with `export =` typings; require() it rather than rely on interop flags.
const Handlebars = createRequire(import.meta.url)("handlebars") as typeof HandlebarsApi;
const env = Handlebars.create();

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

env.registerHelper("json", (value: unknown) => JSON.stringify(value));
env.registerHelper("jsonPretty", (value: unknown) => JSON.stringify(value, null, 2));
env.registerHelper("jsdoc", (text: unknown) => jsdoc(typeof text === "string" ? text : undefined));
env.registerHelper("html", (text: unknown) => escapeHtml(String(text)));
env.registerHelper("eq", (a: unknown, b: unknown) => a === b);
// A name that may wrap only after "_", "." or "/" (never inside a word), for large headings.
env.registerHelper("breakable", (text: unknown) => escapeHtml(String(text)).replace(/([_./])/g, "$1<wbr>"));

const cache = new Map<string, HandlebarsApi.TemplateDelegate>();

/** Renders templates/<name>.hbs with `context`. */
export function render(name: string, context: object): string {
  let template = cache.get(name);
  if (template === undefined) {
    const source = readFileSync(new URL(`${name}.hbs`, TEMPLATE_DIR), "utf8");
    template = env.compile(source, { noEscape: true, strict: true });
    cache.set(name, template);
  }
  return template(context);
}
