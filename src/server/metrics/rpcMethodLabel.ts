import { rpcMethodTable } from "../../../generated/rpc/methods.js";

const METHOD = /"method"\s*:\s*"([A-Za-z0-9_]{1,64})"/;

/**
 * The JSON-RPC method of a request body as a metric label: a method of the spec, else `other`
 * (labels must stay few: a caller's made-up method names never become new series). A regex,
 * not a second JSON parse: the listener already parses the body once.
 */
export function rpcMethodLabel(body: Buffer): string {
  const method = METHOD.exec(body.toString("latin1"))?.[1];
  return method !== undefined && Object.hasOwn(rpcMethodTable, method) ? method : "other";
}
