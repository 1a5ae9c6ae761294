// TS shapes of the assembled OpenAPI 3.1 document (only what the generators read).

import type { Schema } from "./openrpc-model.js";

export interface OpenApiReference {
  $ref: string;
}

export interface OpenApiMediaType {
  schema: Schema;
  example?: unknown;
  examples?: Record<string, { summary?: string; description?: string; value: unknown }>;
}

export interface OpenApiHeader {
  description?: string;
  schema: Schema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader | OpenApiReference>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema: Schema;
  example?: unknown;
}

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: (OpenApiParameter | OpenApiReference)[];
  /** A JSON request body (the `/v0` transaction history operations are POSTs with one). */
  requestBody?: { required?: boolean; description?: string; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse | OpenApiReference>;
  [extension: `x-${string}`]: unknown;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>> & {
  summary?: string;
  description?: string;
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; license?: { name: string } };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, Schema>;
    parameters?: Record<string, OpenApiParameter>;
    headers?: Record<string, OpenApiHeader>;
    responses?: Record<string, OpenApiResponse>;
    securitySchemes?: Record<string, unknown>;
  };
}

/** One operation with its path and method, as the emitters and the linter walk them. */
export interface OperationModel {
  operationId: string;
  method: HttpMethod;
  path: string;
  operation: OpenApiOperation;
  /** Parameters with references resolved. */
  parameters: OpenApiParameter[];
  /** status → response with references resolved, sorted by status. */
  responses: [string, OpenApiResponse][];
}
