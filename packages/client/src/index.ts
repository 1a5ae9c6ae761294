/**
 * @shardkit/client: the typed JSON-RPC client (as @shardkit/client/jsonrpc) and the REST client
 * (as @shardkit/client/rest) from one entry. Browser-safe; `sideEffects: false`, so a bundle
 * keeps only what it uses.
 */
export * from "./jsonrpc/index.js";
export * from "./rest/index.js";
