import { VALIDATION_SCHEMA_MAP } from "@near-js/jsonrpc-types";

/**
 * nearcore's published request schemas, as `@near-js/jsonrpc-types` ships them: zod schemas
 * generated from nearcore's `chain/jsonrpc/openapi/openapi.json`, with keys turned camelCase
 * (the client turns them back to snake_case on the wire, and so do we here). The package ships
 * no JSON document, so this reads the zod definitions into a small shape model.
 *
 * Two things the zod schemas lose are put back from nearcore's openapi.json, each named below:
 * integer formats (zod has plain `number`) and the view_state paging fields, which nearcore
 * 2.13 added after the package's release (1.4.0).
 */

export type Shape =
  | { kind: "object"; props: Record<string, Prop> }
  | { kind: "union"; options: Shape[] }
  | { kind: "intersection"; parts: Shape[] }
  | { kind: "enum"; values: string[] }
  | { kind: "string" }
  | { kind: "integer"; min: number | bigint; max: number | bigint }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "null" }
  | { kind: "array"; items: Shape };

export interface Prop {
  shape: Shape;
  /** May be left out of the request. */
  optional: boolean;
}

/** One object alternative of a request: what a single request may carry. */
export type Variant = Record<string, Prop>;

/** Params of a method: object alternatives, or `null` params (methods without params). */
export interface MethodRequest {
  method: string;
  variants: Variant[];
  /** nearcore declares the params as `null` (no params at all). */
  nullParams: boolean;
}

/** Integer formats nearcore's openapi.json gives the number fields of the requests we serve. */
export const nearcoreIntegerFormats: Record<string, { format: string; min: number | bigint; max: number | bigint }> = {
  // BlockId::Height is a u64 ("format": "uint64", "minimum": 0).
  block_id: { format: "uint64", min: 0, max: 2n ** 64n - 1n },
  // view_state `limit` is Option<NonZeroU32> ("format": "uint32", "minimum": 1, nullable).
  limit: { format: "uint32", min: 1, max: 2 ** 32 - 1 },
};

/** view_state fields of nearcore 2.13 (protocol 85) that @near-js/jsonrpc-types 1.4.0 predates. */
const viewStatePaging: Record<string, Prop> = {
  after_key_base64: { optional: true, shape: { kind: "union", options: [{ kind: "string" }, { kind: "null" }] } },
  limit: { optional: true, shape: { kind: "union", options: [{ kind: "integer", ...range("limit") }, { kind: "null" }] } },
};

function range(field: string): { min: number | bigint; max: number | bigint } {
  const format = nearcoreIntegerFormats[field];
  if (format === undefined) throw new Error(`no integer format for ${field}`);
  return { min: format.min, max: format.max };
}

/** camelCase → snake_case, as @near-js/jsonrpc-client converts request keys. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

interface ZodDef {
  type: string;
  [key: string]: unknown;
}
interface ZodLike {
  _zod: { def: ZodDef };
}

function toShape(schema: ZodLike, field: string | undefined, depth = 0): Shape {
  if (depth > 40) throw new Error("request schema nests too deeply");
  const def = schema._zod.def;
  switch (def.type) {
    case "lazy":
      return toShape((def.getter as () => ZodLike)(), field, depth + 1);
    case "object": {
      const props: Record<string, Prop> = {};
      for (const [key, value] of Object.entries(def.shape as Record<string, ZodLike>)) {
        const name = snakeCase(key);
        const optional = value._zod.def.type === "optional";
        const inner = optional ? (value._zod.def.innerType as ZodLike) : value;
        props[name] = { optional, shape: toShape(inner, name, depth + 1) };
      }
      return { kind: "object", props };
    }
    case "union":
      return { kind: "union", options: (def.options as ZodLike[]).map((o) => toShape(o, field, depth + 1)) };
    case "intersection":
      return { kind: "intersection", parts: [toShape(def.left as ZodLike, field, depth + 1), toShape(def.right as ZodLike, field, depth + 1)] };
    case "enum":
      return { kind: "enum", values: Object.values(def.entries as Record<string, string>) };
    case "string":
      return { kind: "string" };
    case "number":
      return field !== undefined && field in nearcoreIntegerFormats ? { kind: "integer", ...range(field) } : { kind: "number" };
    case "boolean":
      return { kind: "boolean" };
    case "null":
      return { kind: "null" };
    case "array":
      // Items are named after their list (`account_ids` holds account ids) for the value pools.
      return { kind: "array", items: toShape(def.element as ZodLike, field === undefined ? undefined : itemField(field), depth + 1) };
    case "record":
      // Any object (EXPERIMENTAL_split_storage_info): no declared fields, unknown ones allowed.
      return { kind: "object", props: {} };
    default:
      throw new Error(`request schema uses zod type ${def.type}, which this reader does not model`);
  }
}

/** The name an item of list field `field` is known by (`account_ids` → `account_id`). */
export function itemField(field: string): string {
  return field.endsWith("s") ? field.slice(0, -1) : field;
}

/** Every object alternative of a shape: unions add alternatives, intersections combine them. */
export function variantsOf(shape: Shape): Variant[] {
  switch (shape.kind) {
    case "object":
      return [shape.props];
    case "union":
      return shape.options.flatMap(variantsOf);
    case "intersection":
      return shape.parts.map(variantsOf).reduce((acc, next) => acc.flatMap((a) => next.map((b) => ({ ...a, ...b }))));
    default:
      return [];
  }
}

/** The `request_type` of a query variant, if it has one. */
export function requestTypeOf(variant: Variant): string | undefined {
  const shape = variant.request_type?.shape;
  return shape?.kind === "enum" && shape.values.length === 1 ? shape.values[0] : undefined;
}

/** nearcore's params for `method`, or undefined when nearcore's spec has no such method. */
export function nearcoreRequest(method: string): MethodRequest | undefined {
  const entry = (VALIDATION_SCHEMA_MAP as Record<string, { requestSchema: () => unknown } | undefined>)[method];
  if (entry === undefined) return undefined;
  const envelope = toShape(entry.requestSchema() as ZodLike, undefined);
  // genesis_config's entry holds nearcore's params schema (`null`) instead of the envelope: its
  // params type and its method request share the name GenesisConfigRequest in the package.
  if (envelope.kind === "null") return { method, variants: [], nullParams: true };
  if (envelope.kind !== "object" || envelope.props.params === undefined) throw new Error(`${method}: unexpected request envelope`);
  const params = envelope.props.params.shape;
  const variants = variantsOf(params).map((variant) =>
    requestTypeOf(variant) === "view_state" ? { ...viewStatePaging, ...variant } : variant,
  );
  return { method, variants, nullParams: params.kind === "null" };
}

/** Whether `shape` accepts JSON null. */
export function acceptsNull(shape: Shape): boolean {
  if (shape.kind === "null") return true;
  if (shape.kind === "union") return shape.options.some(acceptsNull);
  return false;
}

/** The non-null alternatives of a shape (a nullable field's own type). */
export function nonNull(shape: Shape): Shape[] {
  if (shape.kind === "union") return shape.options.flatMap(nonNull);
  return shape.kind === "null" ? [] : [shape];
}
