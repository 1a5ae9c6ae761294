// Our own small assembler: YAML sources under a spec root → one OpenRPC document, $refs kept.
//
//   <root>/openrpc/base.yaml           openrpc, info, servers, x-extensions
//   <root>/openrpc/methods/<name>.yaml one method object per file, file named after the method
//   <root>/openrpc/error-causes.yaml   cause catalogue → root x-error-cause-catalog
//   <root>/schemas/*.yaml              maps of component schemas → components.schemas
//
// Methods, schemas and causes are sorted by name; each method's plain OpenRPC `errors` are
// derived from its x-error-causes, so they cannot drift from the catalogue.

import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import * as path from "node:path";
import { parse } from "yaml";
import type { ErrorCauseEntry, ErrorObject, MethodObject, OpenRpcDocument, Schema } from "./openrpc-model.js";
import { COMPONENT_REF_PREFIX, collectRefs, isSchemaObject } from "./schema.js";

export class SpecError extends Error {
  override name = "SpecError";
}

export async function readYaml(file: string): Promise<unknown> {
  const text = await readFile(file, "utf8");
  try {
    return parse(text, { schema: "core", uniqueKeys: true, strict: true, prettyErrors: true });
  } catch (error) {
    throw new SpecError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function yamlFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => n.endsWith(".yaml"))
    .sort()
    .map((n) => path.join(dir, n));
}

export function expectMap(value: unknown, file: string): Record<string, unknown> {
  if (!isSchemaObject(value)) throw new SpecError(`${file}: expected a YAML mapping at the top level`);
  return value;
}

export function sortedEntries<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function loadMethods(dir: string): Promise<MethodObject[]> {
  const methods: MethodObject[] = [];
  for (const file of await yamlFiles(dir)) {
    const method = expectMap(await readYaml(file), file) as unknown as MethodObject;
    if (typeof method.name !== "string") throw new SpecError(`${file}: method has no name`);
    if (path.basename(file, ".yaml") !== method.name) {
      throw new SpecError(`${file}: file must be named after its method ("${method.name}.yaml")`);
    }
    if (method.errors !== undefined) {
      throw new SpecError(`${file}: do not write "errors"; they are derived from x-error-causes`);
    }
    methods.push(method);
  }
  return methods.sort((a, b) => (a.name < b.name ? -1 : 1));
}

export async function loadSchemas(dir: string): Promise<Record<string, Schema>> {
  const schemas: Record<string, Schema> = {};
  const origin: Record<string, string> = {};
  for (const file of await yamlFiles(dir)) {
    for (const [name, schema] of Object.entries(expectMap(await readYaml(file), file))) {
      if (name in schemas)
        throw new SpecError(`${file}: schema ${name} is already defined in ${origin[name]}`);
      if (!/^[A-Z][A-Za-z0-9]*$/.test(name))
        throw new SpecError(`${file}: schema name ${name} must be PascalCase`);
      schemas[name] = schema as Schema;
      origin[name] = file;
    }
  }
  return sortedEntries(schemas);
}

/** The distinct code/message pairs of a method's causes, ordered by code. */
export function deriveErrors(
  causes: readonly string[],
  catalog: Record<string, ErrorCauseEntry>,
): ErrorObject[] {
  const byKey = new Map<string, ErrorObject>();
  for (const cause of causes) {
    const entry = catalog[cause];
    if (entry) byKey.set(`${entry.code} ${entry.message}`, { code: entry.code, message: entry.message });
  }
  return [...byKey.values()].sort((a, b) => a.code - b.code || (a.message < b.message ? -1 : 1));
}

function checkRefsResolve(doc: OpenRpcDocument): void {
  const missing = collectRefs(doc)
    .filter(
      ({ ref }) =>
        !ref.startsWith(COMPONENT_REF_PREFIX) ||
        !(ref.slice(COMPONENT_REF_PREFIX.length) in doc.components.schemas),
    )
    .map(({ ref, path: at }) => `  ${at || "/"}: ${ref}`);
  if (missing.length > 0)
    throw new SpecError(
      `unresolved $ref (only ${COMPONENT_REF_PREFIX}<Name> is supported):\n${missing.join("\n")}`,
    );
}

/** Reads the YAML sources under `specRoot` and returns the assembled document. */
export async function assembleOpenRpc(specRoot: string): Promise<OpenRpcDocument> {
  const openrpcDir = path.join(specRoot, "openrpc");
  const baseFile = path.join(openrpcDir, "base.yaml");
  const base = expectMap(await readYaml(baseFile), baseFile);
  for (const key of ["methods", "components", "x-error-cause-catalog"]) {
    if (key in base)
      throw new SpecError(`${baseFile}: "${key}" is assembled from other files; remove it here`);
  }
  const causesFile = path.join(openrpcDir, "error-causes.yaml");
  const catalog = sortedEntries(
    (existsSync(causesFile) ? expectMap(await readYaml(causesFile), causesFile) : {}) as Record<
      string,
      ErrorCauseEntry
    >,
  );
  const methods = (await loadMethods(path.join(openrpcDir, "methods"))).map((method) => {
    const { examples, ...rest } = method;
    const errors = deriveErrors(method["x-error-causes"] ?? [], catalog);
    return {
      ...rest,
      ...(errors.length > 0 ? { errors } : {}),
      ...(examples ? { examples } : {}),
    } as MethodObject;
  });
  const { openrpc, info, servers, ...restOfBase } = base;
  const doc = {
    openrpc,
    info,
    ...(servers !== undefined ? { servers } : {}),
    methods,
    components: { schemas: await loadSchemas(path.join(specRoot, "schemas")) },
    ...restOfBase,
    "x-error-cause-catalog": catalog,
  } as OpenRpcDocument;
  checkRefsResolve(doc);
  return doc;
}
