/**
 * @shardkit/client/rest: an openapi-fetch client typed by openapi-typescript's types of the
 * shardkit REST spec (generated/openapi.json). Browser-safe.
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../generated/rest/types.js";

export type { components, operations, paths } from "../generated/rest/types.js";

export interface RestClientOptions {
  /** The REST listener, e.g. `http://127.0.0.1:3040` (routes start with /v1). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

export type RestClient = Client<paths>;

/** `api.GET("/v1/account/{account_id}/full", { params: { path: { account_id } } })` → `{ data, error, response }`. */
export function restClient(options: RestClientOptions): RestClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
