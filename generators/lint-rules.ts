// Semantic checks on an assembled OpenRPC document, beyond what the meta-schema can say.
// Each check returns human-readable problems prefixed with where they are.

import { Ajv2020 } from "ajv/dist/2020.js";
import { validateOpenRPCDocument } from "@open-rpc/schema-utils-js";
import type {
  ContentDescriptor,
  MethodObject,
  OpenRpcDocument,
  Schema,
  SchemaObject,
} from "./openrpc-model.js";
import { methodModels, type MethodModel } from "./method-model.js";
import { createRpcAjv } from "./ajv.js";
import { methodTypeNames, sharedVariantNames } from "./emit-types.js";
import { deriveErrors } from "./assemble.js";
import {
  COMPONENT_REF_PREFIX,
  componentName,
  isSchemaObject,
  jsonEqual,
  stripAnnotations,
} from "./schema.js";

export interface LintResult {
  errors: string[];
  notes: string[];
}

/** The meta-schema check, via schema-utils (never its dereferencer: it loops on recursive schemas). */
export function checkMetaSchema(doc: OpenRpcDocument): string[] {
  try {
    const result = validateOpenRPCDocument(doc as never);
    if (result === true) return [];
    // The error only carries a message: two header lines, then the ajv 6 errors as JSON.
    const json = result.message.slice(result.message.indexOf("["));
    try {
      const list = JSON.parse(json) as {
        dataPath: string;
        message: string;
        params?: Record<string, unknown>;
      }[];
      const lines = list.map(
        (e) => `meta-schema: ${e.dataPath || "/"} ${e.message} ${JSON.stringify(e.params ?? {})}`,
      );
      return [...new Set(lines)];
    } catch {
      return [`meta-schema: ${result.message}`];
    }
  } catch (error) {
    return [`meta-schema: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** Every x- key is declared in x-extensions and its value matches the declared schema. */
export function checkExtensions(doc: OpenRpcDocument): string[] {
  const problems: string[] = [];
  const declared = new Map((doc["x-extensions"] ?? []).map((ext) => [ext.name, ext]));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const check = (where: string, target: Record<string, unknown>, objectName: string | null) => {
    for (const [key, value] of Object.entries(target)) {
      if (!key.startsWith("x-") || key === "x-extensions") continue;
      const ext = declared.get(key);
      if (!ext) {
        problems.push(`${where}: ${key} is not declared in x-extensions`);
        continue;
      }
      if (objectName !== null && !(ext.restricted ?? []).includes(objectName)) {
        problems.push(`${where}: ${key} is not allowed on ${objectName} (see its x-extensions "restricted")`);
      }
      const validate = ajv.compile(ext.schema as object);
      if (!validate(value)) problems.push(`${where}: ${key} ${ajv.errorsText(validate.errors)}`);
    }
  };
  check("root", doc, null);
  for (const method of doc.methods)
    check(`method ${method.name}`, method as unknown as Record<string, unknown>, "methodObject");
  return problems;
}

/** Documentation and structure every method must have. */
export function checkMethodShape(method: MethodObject): string[] {
  const where = `method ${method.name}`;
  const problems: string[] = [];
  if (!method.summary?.trim()) problems.push(`${where}: missing summary`);
  if (!method.description?.trim()) problems.push(`${where}: missing description`);
  if (method.paramStructure !== "by-name") problems.push(`${where}: paramStructure must be "by-name"`);
  if (!method.result) problems.push(`${where}: missing result`);
  if (!method.examples || method.examples.length === 0)
    problems.push(`${where}: needs at least one example pairing`);
  if (!method["x-error-causes"] || method["x-error-causes"].length === 0)
    problems.push(`${where}: missing x-error-causes`);
  const names = method.params.map((p) => p.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate) problems.push(`${where}: param ${duplicate} is listed twice`);
  const firstOptional = method.params.findIndex((p) => p.required !== true);
  if (firstOptional >= 0 && method.params.slice(firstOptional).some((p) => p.required === true)) {
    problems.push(`${where}: required params must come before optional ones`);
  }
  const exampleNames = (method.examples ?? []).map((e) => e.name);
  const dupExample = exampleNames.find((name, i) => exampleNames.indexOf(name) !== i);
  if (dupExample) problems.push(`${where}: example ${dupExample} is listed twice`);
  return problems;
}

const EXPECTED: Record<string, { codes: number[]; statuses: number[] }> = {
  REQUEST_VALIDATION_ERROR: { codes: [-32700, -32600, -32601, -32602], statuses: [400] },
  HANDLER_ERROR: { codes: [-32000], statuses: [200, 408] },
  INTERNAL_ERROR: { codes: [-32000], statuses: [500] },
};
const MESSAGES: Record<number, string> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32000]: "Server error",
};

/** The cause catalogue is internally consistent and every referenced cause exists. */
export function checkErrorCauses(doc: OpenRpcDocument): LintResult {
  const errors: string[] = [];
  const catalog = doc["x-error-cause-catalog"] ?? {};
  for (const [name, entry] of Object.entries(catalog)) {
    const where = `x-error-cause-catalog ${name}`;
    const expected = EXPECTED[entry.error];
    if (!expected) {
      errors.push(`${where}: unknown error name ${entry.error}`);
      continue;
    }
    if (!expected.codes.includes(entry.code))
      errors.push(`${where}: ${entry.error} must use code ${expected.codes.join(" or ")}, not ${entry.code}`);
    if (!expected.statuses.includes(entry.httpStatus))
      errors.push(
        `${where}: ${entry.error} must use HTTP ${expected.statuses.join(" or ")}, not ${entry.httpStatus}`,
      );
    if (MESSAGES[entry.code] !== undefined && MESSAGES[entry.code] !== entry.message) {
      errors.push(
        `${where}: code ${entry.code} goes with message "${MESSAGES[entry.code]}", not "${entry.message}"`,
      );
    }
    for (const [field, target] of [
      ["info", entry.info],
      ["dataSchema", entry.dataSchema ?? null],
    ] as const) {
      if (target === null) continue;
      const ref: unknown = isSchemaObject(target) ? target.$ref : undefined;
      if (typeof ref !== "string") {
        errors.push(`${where}: ${field} must be { $ref: "${COMPONENT_REF_PREFIX}<Name>" }`);
      } else if (
        !ref.startsWith(COMPONENT_REF_PREFIX) ||
        doc.components.schemas[componentName(ref)] === undefined
      ) {
        errors.push(`${where}: ${field} ${ref} does not resolve`);
      }
    }
  }
  const used = new Set<string>();
  for (const method of doc.methods) {
    const causes = method["x-error-causes"] ?? [];
    for (const cause of causes) {
      used.add(cause);
      if (!(cause in catalog))
        errors.push(`method ${method.name}: error cause ${cause} is not in x-error-cause-catalog`);
    }
    if (!jsonEqual(method.errors ?? [], deriveErrors(causes, catalog))) {
      errors.push(
        `method ${method.name}: errors must be the code/message pairs of its x-error-causes (re-assemble)`,
      );
    }
  }
  const notes = Object.keys(catalog)
    .filter((name) => !used.has(name))
    .map((name) => `cause ${name} is in the catalogue but no method lists it`);
  return { errors, notes };
}

interface Alternative {
  props: Map<string, Schema>;
  required: Set<string>;
}

/** Every combination of properties a params schema allows (allOf multiplies, oneOf/anyOf adds). */
export function alternatives(doc: OpenRpcDocument, schema: Schema, depth = 0): Alternative[] {
  if (depth > 16) throw new Error("params schema nests too deeply");
  if (!isSchemaObject(schema)) return [{ props: new Map(), required: new Set() }];
  let current: Alternative[] = [
    {
      props: new Map(Object.entries(schema.properties ?? {})),
      required: new Set(schema.required ?? []),
    },
  ];
  const merge = (others: Alternative[]) =>
    current.flatMap((a) =>
      others.map((b) => ({
        props: new Map([...a.props, ...b.props]),
        required: new Set([...a.required, ...b.required]),
      })),
    );
  if (typeof schema.$ref === "string")
    current = merge(alternatives(doc, doc.components.schemas[componentName(schema.$ref)] ?? true, depth + 1));
  for (const part of (schema.allOf as Schema[] | undefined) ?? [])
    current = merge(alternatives(doc, part, depth + 1));
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (union) current = merge(union.flatMap((branch) => alternatives(doc, branch, depth + 1)));
  return current;
}

function describe(schema: Schema): string {
  return JSON.stringify(stripAnnotations(schema));
}

/** The flat by-name descriptors list exactly the keys of x-params-schema, with matching schemas. */
export function checkDescriptorsAgree(doc: OpenRpcDocument, method: MethodObject): string[] {
  const paramsSchema = method["x-params-schema"];
  if (paramsSchema === undefined) return [];
  const where = `method ${method.name}`;
  const problems: string[] = [];
  const alts = alternatives(doc, paramsSchema);
  const names = [...new Set(alts.flatMap((a) => [...a.props.keys()]))];
  const byName = new Map<string, ContentDescriptor>(method.params.map((p) => [p.name, p]));
  for (const name of names)
    if (!byName.has(name)) problems.push(`${where}: x-params-schema has ${name} but params do not list it`);
  for (const descriptor of method.params) {
    if (!names.includes(descriptor.name)) {
      problems.push(`${where}: param ${descriptor.name} is not a key of x-params-schema`);
      continue;
    }
    const requiredEverywhere = alts.every((a) => a.required.has(descriptor.name));
    if ((descriptor.required === true) !== requiredEverywhere) {
      problems.push(
        `${where}: param ${descriptor.name} must be ${requiredEverywhere ? "required" : "optional"} (it is ${requiredEverywhere ? "required in every" : "optional in some"} x-params-schema variant)`,
      );
    }
    const variants = [
      ...new Map(
        alts
          .flatMap((a) => (a.props.has(descriptor.name) ? [a.props.get(descriptor.name)!] : []))
          .map((s) => [describe(s), stripAnnotations(s)]),
      ).values(),
    ];
    const flat = stripAnnotations(descriptor.schema);
    if (variants.length === 1) {
      if (!jsonEqual(flat, variants[0])) {
        problems.push(
          `${where}: param ${descriptor.name} schema ${describe(flat)} differs from x-params-schema ${describe(variants[0]!)}`,
        );
      }
    } else if (variants.every((v) => isSchemaObject(v) && "const" in v)) {
      const consts = variants.map((v) => (v as SchemaObject).const);
      const enumValues = isSchemaObject(flat) && Array.isArray(flat.enum) ? flat.enum : undefined;
      if (
        !enumValues ||
        enumValues.length !== consts.length ||
        !consts.every((c) => enumValues.some((e) => jsonEqual(e, c)))
      ) {
        problems.push(
          `${where}: param ${descriptor.name} must be an enum of ${JSON.stringify(consts)} (the variant tags)`,
        );
      }
    } else {
      problems.push(
        `${where}: param ${descriptor.name} has different schemas in different variants; give it one schema`,
      );
    }
  }
  return problems;
}

/** Every example's params and result validate; example params are declared descriptors. */
export function checkExamples(doc: OpenRpcDocument, models: MethodModel[]): string[] {
  const problems: string[] = [];
  let compiled: ReturnType<typeof createRpcAjv>;
  try {
    compiled = createRpcAjv(doc, models, { allErrors: true });
  } catch (error) {
    return [`ajv: schemas do not compile: ${error instanceof Error ? error.message : String(error)}`];
  }
  const { ajv, ids } = compiled;
  const run = (id: string, data: unknown, dataVar: string): string | null => {
    const validate = ajv.getSchema(id);
    if (!validate) return `no validator for ${id}`;
    return validate(data) ? null : ajv.errorsText(validate.errors, { dataVar });
  };
  for (const model of models) {
    const declared = new Set(model.paramNames);
    for (const example of model.method.examples ?? []) {
      const where = `method ${model.name} example ${example.name}`;
      for (const param of example.params) {
        if (!declared.has(param.name)) problems.push(`${where}: param ${param.name} is not declared`);
      }
      const params = Object.fromEntries(example.params.map((p) => [p.name, p.value]));
      const paramsError = run(ids.params[model.name]!, params, "params");
      if (paramsError) problems.push(`${where}: ${paramsError}`);
      if (example.result === undefined) {
        problems.push(`${where}: missing result`);
      } else {
        const resultError = run(ids.result[model.name]!, example.result.value, "result");
        if (resultError) problems.push(`${where}: ${resultError}`);
      }
    }
  }
  return problems;
}

/** Generated type names (`<Pascal>Params`, `<Pascal>Result`, variant params) must not clash. */
export function checkTypeNames(doc: OpenRpcDocument, models: MethodModel[]): string[] {
  const owner = new Map(Object.keys(doc.components.schemas).map((name) => [name, `schema ${name}`]));
  const problems: string[] = [];
  const variantSources = new Map<string, string>();
  for (const model of models) {
    const shared = sharedVariantNames(model, variantSources);
    for (const name of methodTypeNames(model)) {
      if (shared.has(name)) continue;
      const taken = owner.get(name);
      if (taken)
        problems.push(
          `method ${model.name}: generated type ${name} clashes with ${taken}; rename the schema`,
        );
      else owner.set(name, `method ${model.name}`);
    }
  }
  return problems;
}

export function lintOpenRpc(doc: OpenRpcDocument): LintResult {
  const models = methodModels(doc);
  const causes = checkErrorCauses(doc);
  const errors = [
    ...checkMetaSchema(doc),
    ...checkExtensions(doc),
    ...doc.methods.flatMap(checkMethodShape),
    ...checkTypeNames(doc, models),
    ...causes.errors,
    ...doc.methods.flatMap((m) => checkDescriptorsAgree(doc, m)),
    ...checkExamples(doc, models),
  ];
  return { errors, notes: causes.notes };
}
