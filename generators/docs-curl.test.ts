// The docs' curl lines: quoting survives a real shell, and the REST forms follow the spec's
// security schemes and parameter examples (placeholders where the spec has no example).

import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleTarget, restCurls, rpcCurl, shellQuote } from "./docs-curl.js";
import type { OpenApiDocument, OperationModel } from "./openapi-model.js";

/** What bash makes of each word: printed NUL-separated by one shell run. */
function throughBash(words: string[]): string[] {
  const script = words.map((w) => `printf '%s\\0' ${w}`).join("\n");
  return execFileSync("bash", ["-c", script], { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } })
    .split("\0")
    .slice(0, -1);
}

describe("shellQuote", () => {
  it("gives bash back any text unchanged (quotes, $, backslashes, newlines)", () => {
    const texts = fc.sample(fc.string({ unit: "binary" }).map((s) => s.replace(/\0/g, "")), { numRuns: 200, seed: 7 });
    texts.push(`it's "$HOME" \`id\` \\ \n done`);
    expect(throughBash(texts.map(shellQuote))).toEqual(texts);
  });

  it("puts a JSON-RPC request with an apostrophe into one -d argument intact", () => {
    const request = { jsonrpc: "2.0", id: "dontcare", method: "query", params: { args: "it's" } };
    const line = rpcCurl("http://127.0.0.1:3030", request);
    const body = line.slice(line.indexOf(" -d ") + 4);
    expect(JSON.parse(throughBash([body])[0]!)).toEqual(request);
  });
});

const doc = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: "http://127.0.0.1:3040/" }],
  security: [{}, { bearerAuth: [] }, { apiKeyQuery: [] }, { keyHeader: [] }],
  paths: {},
  components: {
    schemas: {},
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer" },
      apiKeyQuery: { type: "apiKey", in: "query", name: "apiKey" },
      keyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
    },
  },
} as OpenApiDocument;

const model = (parameters: OperationModel["parameters"]): OperationModel => ({
  operationId: "op",
  method: "get",
  path: "/v1/thing/{id}/{other}",
  operation: { operationId: "op", responses: {} },
  parameters,
  responses: [],
});

describe("REST curl lines", () => {
  const op = model([
    { name: "id", in: "path", required: true, schema: { type: "string" }, example: "a b/c" },
    { name: "other", in: "path", required: true, schema: { type: "string" } },
    { name: "limit", in: "query", schema: { type: "integer", default: 10 } },
    { name: "cursor", in: "query", schema: { type: "string" } },
  ]);

  it("fills path and query from examples and defaults, encoded; a required one without any shows <name>", () => {
    expect(exampleTarget(op)).toEqual({ path: "/v1/thing/a%20b%2Fc/<other>", query: [["limit", "10"]] });
  });

  it("prints a line without a key and one per security scheme, the key read from $SHARDKIT_API_KEY", () => {
    expect(restCurls(doc, op).map((c) => c.command)).toEqual([
      "curl -sS 'http://127.0.0.1:3040/v1/thing/a%20b%2Fc/<other>?limit=10'",
      `curl -sS -H "Authorization: Bearer $SHARDKIT_API_KEY" 'http://127.0.0.1:3040/v1/thing/a%20b%2Fc/<other>?limit=10'`,
      `curl -sS "http://127.0.0.1:3040/v1/thing/a%20b%2Fc/<other>?limit=10&apiKey=$SHARDKIT_API_KEY"`,
      `curl -sS -H "X-Api-Key: $SHARDKIT_API_KEY" 'http://127.0.0.1:3040/v1/thing/a%20b%2Fc/<other>?limit=10'`,
    ]);
  });

  it("refuses a security scheme it cannot express as curl", () => {
    const oauth = { ...doc, security: [{ oauth: [] }], components: { ...doc.components, securitySchemes: { oauth: { type: "oauth2" } } } };
    expect(() => restCurls(oauth as OpenApiDocument, op)).toThrow(/oauth has a form the docs cannot show/);
  });
});
