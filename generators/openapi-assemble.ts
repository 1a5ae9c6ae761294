// Our own small assembler for the REST spec: YAML sources → one OpenAPI 3.1 document.
//
//   <root>/openapi/base.yaml           openapi, info, servers, security, non-schema components
//   <root>/openapi/paths/<opId>.yaml   one path with one operation per file, named after its operationId
//   <root>/openapi/schemas/*.yaml      REST-only component schemas
//   <root>/schemas/*.yaml              shared schemas (also in the OpenRPC document); only those
//                                      the REST document references (transitively) are copied in
//
// Paths are sorted, schemas sorted by name, `$ref`s kept; every `#/components/...` ref must
// resolve inside the document.

import { existsSync } from "node:fs";
import * as path from "node:path";
import { SpecError, expectMap, loadSchemas, readYaml, sortedEntries, yamlFiles } from "./assemble.js";
import {
  HTTP_METHODS,
  type OpenApiDocument,
  type OpenApiParameter,
  type OpenApiPathItem,
  type OpenApiReference,
  type OpenApiResponse,
  type OperationModel,
} from "./openapi-model.js";
import type { Schema } from "./openrpc-model.js";
import { COMPONENT_REF_PREFIX, collectRefs, isSchemaObject } from "./schema.js";

/** Whether a spec root has a REST spec at all (the OpenRPC-only fixtures do not). */
export function hasOpenApi(specRoot: string): boolean {
  return existsSync(path.join(specRoot, "openapi", "base.yaml"));
}

async function loadPaths(dir: string): Promise<Record<string, OpenApiPathItem>> {
  const paths: Record<string, OpenApiPathItem> = {};
  for (const file of await yamlFiles(dir)) {
    const entries = Object.entries(expectMap(await readYaml(file), file));
    if (entries.length !== 1) throw new SpecError(`${file}: expected exactly one path`);
    const [route, item] = entries[0]!;
    if (route in paths) throw new SpecError(`${file}: path ${route} is defined twice`);
    const methods = HTTP_METHODS.filter((m) => isSchemaObject(item) && m in item);
    if (methods.length !== 1) throw new SpecError(`${file}: expected exactly one operation under ${route}`);
    const operation = (item as OpenApiPathItem)[methods[0]!]!;
    if (operation.operationId !== path.basename(file, ".yaml")) {
      throw new SpecError(`${file}: file must be named after its operationId ("${String(operation.operationId)}.yaml")`);
    }
    paths[route] = item as OpenApiPathItem;
  }
  return sortedEntries(paths);
}

/** The shared schemas the REST document needs: the closure of its `#/components/schemas` refs. */
function referencedShared(
  start: unknown,
  own: Record<string, Schema>,
  shared: Record<string, Schema>,
): Record<string, Schema> {
  const picked: Record<string, Schema> = {};
  const queue = collectRefs(start).map((r) => r.ref);
  while (queue.length > 0) {
    const ref = queue.pop()!;
    if (!ref.startsWith(COMPONENT_REF_PREFIX)) continue;
    const name = ref.slice(COMPONENT_REF_PREFIX.length);
    if (name in own || name in picked || !(name in shared)) continue;
    picked[name] = shared[name]!;
    queue.push(...collectRefs(shared[name]).map((r) => r.ref));
  }
  return picked;
}

/** Resolves a `#/components/<kind>/<name>` pointer inside the document. */
export function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isSchemaObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

function checkRefsResolve(doc: OpenApiDocument): void {
  const missing = collectRefs(doc)
    .filter(({ ref }) => resolvePointer(doc, ref) === undefined)
    .map(({ ref, path: at }) => `  ${at || "/"}: ${ref}`);
  if (missing.length > 0) throw new SpecError(`unresolved $ref in the REST spec:\n${missing.join("\n")}`);
}

/** Reads the YAML sources under `specRoot` and returns the assembled REST document. */
export async function assembleOpenApi(specRoot: string): Promise<OpenApiDocument> {
  const dir = path.join(specRoot, "openapi");
  const baseFile = path.join(dir, "base.yaml");
  const base = expectMap(await readYaml(baseFile), baseFile);
  if ("paths" in base) throw new SpecError(`${baseFile}: "paths" is assembled from paths/*.yaml; remove it here`);
  const components = (isSchemaObject(base.components) ? base.components : {}) as Record<string, unknown>;
  if ("schemas" in components) {
    throw new SpecError(`${baseFile}: components.schemas is assembled from schemas/*.yaml; remove it here`);
  }
  const paths = await loadPaths(path.join(dir, "paths"));
  const own = await loadSchemas(path.join(dir, "schemas"));
  const shared = await loadSchemas(path.join(specRoot, "schemas"));
  for (const name of Object.keys(own)) {
    if (name in shared) throw new SpecError(`REST schema ${name} is also a shared schema; rename it or reference the shared one`);
  }
  const schemas = sortedEntries({ ...own, ...referencedShared([paths, components, own], own, shared) });
  const { openapi, info, servers, tags, security, ...rest } = base;
  const doc = {
    openapi,
    info,
    ...(servers !== undefined ? { servers } : {}),
    ...(tags !== undefined ? { tags } : {}),
    ...(security !== undefined ? { security } : {}),
    ...Object.fromEntries(Object.entries(rest).filter(([k]) => k !== "components")),
    paths,
    components: { schemas, ...sortedEntries(components) },
  } as OpenApiDocument;
  checkRefsResolve(doc);
  return doc;
}

function deref<T>(doc: OpenApiDocument, value: T | OpenApiReference): T {
  let current: unknown = value;
  for (let depth = 0; depth < 16 && isSchemaObject(current) && typeof current.$ref === "string"; depth++) {
    current = resolvePointer(doc, current.$ref);
  }
  return current as T;
}

/** Every operation, sorted by operationId, with parameters and responses resolved. */
export function operationModels(doc: OpenApiDocument): OperationModel[] {
  const models: OperationModel[] = [];
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      models.push({
        operationId: operation.operationId,
        method,
        path: route,
        operation,
        parameters: (operation.parameters ?? []).map((p) => deref<OpenApiParameter>(doc, p)),
        responses: Object.entries(operation.responses)
          .map(([status, r]) => [status, deref<OpenApiResponse>(doc, r)] as [string, OpenApiResponse])
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      });
    }
  }
  return models.sort((a, b) => (a.operationId < b.operationId ? -1 : 1));
}
