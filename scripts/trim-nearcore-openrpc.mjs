#!/usr/bin/env node
// Trims nearcore's published OpenRPC document (chain/jsonrpc/openapi/openrpc.json in
// near/nearcore) to what test/compat/nearcoreOpenRpc.test.ts needs: method names, params (name,
// required, schema), results and the component schemas they reach. Everything else is dropped:
// info, servers, summaries, tags, descriptions, titles, formats, defaults, examples; a
// single-entry `allOf` around a `$ref` (schemars' way of attaching a description) becomes the
// `$ref`. Keys are sorted, so the output is deterministic and diffs show real changes.
//
//   node scripts/trim-nearcore-openrpc.mjs <nearcore openrpc.json> <commit> > test/compat/nearcore/openrpc.json

import { readFileSync } from "node:fs";

const [input, commit] = process.argv.slice(2);
if (input === undefined || commit === undefined) {
  console.error("usage: trim-nearcore-openrpc.mjs <openrpc.json> <commit>");
  process.exit(2);
}
const doc = JSON.parse(readFileSync(input, "utf8"));
console.log(JSON.stringify(trimNearcoreOpenRpc(doc, commit), null, 1));

function trimNearcoreOpenRpc(doc, commit) {
  const DROP = new Set(["description", "title", "format", "default", "examples"]);
  const REF = "#/components/schemas/";
  const trim = (schema) => {
    if (Array.isArray(schema)) return schema.map(trim);
    if (schema === null || typeof schema !== "object") return schema;
    const kept = Object.fromEntries(Object.entries(schema).filter(([k]) => !DROP.has(k)));
    const keys = Object.keys(kept);
    if (keys.length === 1 && keys[0] === "allOf" && kept.allOf.length === 1 && kept.allOf[0].$ref !== undefined) return trim(kept.allOf[0]);
    const out = {};
    for (const key of keys.sort()) {
      const value = kept[key];
      out[key] = key === "properties" || key === "patternProperties" ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, trim(value[k])])) : trim(value);
    }
    return out;
  };
  const methods = doc.methods.map((m) => ({
    ...(m.deprecated === true && { deprecated: true }),
    name: m.name,
    params: m.params.map((p) => ({ name: p.name, required: p.required === true, schema: trim(p.schema) })),
    result: trim(m.result.schema),
  }));
  const all = doc.components.schemas;
  const reached = new Set();
  const visit = (value) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith(REF)) {
        const name = v.slice(REF.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(all[name]);
        }
      } else visit(v);
    }
  };
  visit(methods);
  const schemas = Object.fromEntries([...reached].sort().map((name) => [name, trim(all[name])]));
  return {
    "x-source": { repository: "near/nearcore", path: "chain/jsonrpc/openapi/openrpc.json", commit, openrpc: doc.openrpc, methods: methods.length },
    "x-trimmed":
      "Only method names, params (name, required, schema), results and the component schemas they reach. Removed: info, servers, summaries, tags, descriptions, titles, formats, defaults, examples; a single-entry allOf around a $ref is replaced by the $ref.",
    methods,
    components: { schemas },
  };
}
