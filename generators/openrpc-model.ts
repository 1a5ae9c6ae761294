// The parts of an assembled OpenRPC document the generators read.
// Schemas stay loosely typed (JSON Schema 2020-12 objects); helpers in schema.ts walk them.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema 2020-12 object or boolean schema. */
export type Schema = boolean | SchemaObject;

export interface SchemaObject {
  [keyword: string]: unknown;
  $ref?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
}

export interface ContentDescriptor {
  name: string;
  schema: Schema;
  summary?: string;
  description?: string;
  required?: boolean;
  deprecated?: boolean;
}

export interface ExampleObject {
  name: string;
  value: unknown;
  summary?: string;
  description?: string;
}

export interface ExamplePairing {
  name: string;
  description?: string;
  params: ExampleObject[];
  result?: ExampleObject;
}

export interface ErrorObject {
  code: number;
  message: string;
}

export interface MethodObject {
  name: string;
  summary?: string;
  description?: string;
  paramStructure?: "by-name" | "by-position" | "either";
  params: ContentDescriptor[];
  result?: ContentDescriptor;
  errors?: ErrorObject[];
  examples?: ExamplePairing[];
  "x-params-schema"?: Schema;
  "x-error-causes"?: string[];
  /** What the server does with a params field the method does not declare: drop it (nearcore's serde default) or refuse it. */
  "x-unknown-params"?: "ignore" | "deny";
  "x-result-by-variant"?: Record<string, string[]>;
  [extension: `x-${string}`]: unknown;
}

export type RpcErrorName = "HANDLER_ERROR" | "REQUEST_VALIDATION_ERROR" | "INTERNAL_ERROR";

/** One entry of the root `x-error-cause-catalog`. */
export interface ErrorCauseEntry {
  error: RpcErrorName;
  code: number;
  message: string;
  httpStatus: number;
  /** `$ref` to the schema of `cause.info`, or null when the cause has no `info`. */
  info: { $ref: string } | null;
  /** What the legacy `data` field says (the text, or how the structured value is built). */
  data: string;
  /**
   * `$ref` to the schema of a structured `data` value (a JSON object instead of the message
   * text). Absent when `data` is a string, as it is for most causes.
   */
  dataSchema?: { $ref: string };
  description: string;
}

export interface ExtensionDeclaration {
  openrpcExtension: string;
  name: string;
  version: string;
  summary?: string;
  description?: string;
  restricted?: string[];
  schema: Schema;
}

export interface OpenRpcDocument {
  openrpc: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  servers?: { name?: string; url: string; summary?: string; description?: string }[];
  methods: MethodObject[];
  components: { schemas: Record<string, Schema>; [key: string]: unknown };
  "x-extensions"?: ExtensionDeclaration[];
  "x-error-cause-catalog": Record<string, ErrorCauseEntry>;
  [key: string]: unknown;
}
