// Table-driven tests of the JSON Schema → TypeScript rules (see schema-to-ts.ts).

import { describe, expect, it } from "vitest";
import type { Schema } from "./openrpc-model.js";
import { jsdoc, tsType, type TsContext } from "./schema-to-ts.js";

const components: Record<string, Schema> = {
  Tagged: { type: "object", required: ["kind"], properties: { kind: { const: "a" } } },
  Other: { type: "object", required: ["kind"], properties: { kind: { const: "b" } } },
};
const ctx: TsContext = {
  typeName: (ref) => ref.split("/").pop()!,
  resolve: (ref) => components[ref.split("/").pop()!]!,
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const squash = (type: string) => type.replace(/\s+/g, " ").trim();

describe("tsType", () => {
  it.each<[string, Schema, string]>([
    ["true schema", true, "unknown"],
    ["false schema", false, "never"],
    ["string", { type: "string", pattern: "^a$" }, "string"],
    ["integer", { type: "integer", minimum: 0 }, "number"],
    ["null", { type: "null" }, "null"],
    ["type union", { type: ["string", "null"] }, "string | null"],
    ["const", { const: "view_state" }, '"view_state"'],
    ["enum", { enum: ["a", 1, null] }, '"a" | 1 | null'],
    ["ref", ref("Tagged"), "Tagged"],
    ["nullable ref", { oneOf: [ref("Tagged"), { type: "null" }] }, "Tagged | null"],
    [
      "array",
      { type: "array", items: { oneOf: [{ type: "string" }, { type: "null" }] } },
      "(string | null)[]",
    ],
    ["empty array", { type: "array", items: false }, "[]"],
    [
      "closed tuple",
      { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 2 },
      "[string, number]",
    ],
    [
      "open tuple",
      { type: "array", prefixItems: [{ type: "string" }], minItems: 1 },
      "[string, ...unknown[]]",
    ],
    [
      "optional tuple element",
      { type: "array", prefixItems: [{ type: "string" }], items: false },
      "[string?]",
    ],
    [
      "required and optional properties",
      { type: "object", required: ["a"], properties: { a: { type: "string" }, "b-c": { type: "integer" } } },
      '{ a: string; "b-c"?: number; }',
    ],
    ["closed empty object", { type: "object", additionalProperties: false }, "Record<string, never>"],
    ["open object", { type: "object" }, "{ [key: string]: unknown }"],
    ["map", { type: "object", additionalProperties: { type: "string" } }, "{ [key: string]: string }"],
    [
      "allOf with own properties",
      { type: "object", properties: { x: { type: "string" } }, required: ["x"], allOf: [ref("Tagged")] },
      "{ x: string; } & Tagged",
    ],
    ["discriminated union of refs", { oneOf: [ref("Tagged"), ref("Other")] }, "Tagged | Other"],
    [
      "exactly-one-of inline branches",
      {
        oneOf: [
          { type: "object", required: ["a"], properties: { a: { type: "string" } } },
          { type: "object", required: ["b"], properties: { b: { type: "string" } } },
        ],
      },
      "{ a: string; b?: never; } | { b: string; a?: never; }",
    ],
    [
      "inline const-tagged union keeps branches as written",
      {
        oneOf: [
          { type: "object", required: ["t", "a"], properties: { t: { const: 1 }, a: { type: "string" } } },
          { type: "object", required: ["t"], properties: { t: { const: 2 } } },
        ],
      },
      "{ t: 1; a: string; } | { t: 2; }",
    ],
    [
      "object tag next to a ref",
      { type: "object", $ref: "#/components/schemas/Tagged", unevaluatedProperties: false },
      "Tagged",
    ],
  ])("%s", (_name, schema, expected) => {
    expect(squash(tsType(schema, ctx))).toBe(squash(expected));
  });

  it("documents properties and escapes comment terminators", () => {
    const type = tsType(
      {
        type: "object",
        properties: { a: { type: "string", description: "ends */ here", deprecated: true } },
      },
      ctx,
    );
    expect(type).toContain("/**\n * ends *\\/ here\n * @deprecated\n */\na?: string;");
    expect(jsdoc("")).toBe("");
    expect(jsdoc("one line")).toBe("/** one line */\n");
  });
});
