import { trustedProxies } from "../server/http/clientAddress.js";
import { UsageError } from "./flags.js";

/** `--trust-proxy CIDR` (repeatable), the same for `serve` and `gateway`. */
export const trustProxyFlagSpec = { "trust-proxy": { type: "string", multiple: true } } as const;

export const trustProxyUsage = `  --trust-proxy CIDR           a load balancer or proxy in front (repeatable; 10.0.0.0/8, fd00::/8 or one address):
                               from such a peer, keyless rate caps count the X-Forwarded-For client
                               (its rightmost untrusted hop) instead of the proxy`;

/** The checked --trust-proxy values (none: keyless caps count the TCP peer). */
export function trustProxyFrom(values: { "trust-proxy"?: string[] }, command: string): string[] {
  const list = values["trust-proxy"] ?? [];
  try {
    trustedProxies(list);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), command);
  }
  return list;
}
