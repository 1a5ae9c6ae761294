import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** The address a keyless request's rate cap counts against (`serve` and `gateway`, `--trust-proxy`). */
export type ClientAddressOf = (req: IncomingMessage) => string;

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, how a dual-stack socket reports IPv4 peers) as plain IPv4. */
function normalized(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * Parses `--trust-proxy` values: `10.0.0.0/8`, `fd00::/8`, or a single address (a /32 or /128).
 * Throws with the offending value.
 */
export function trustedProxies(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const text of cidrs) {
    const [address = "", prefixText, extra] = text.trim().split("/");
    const family = isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(prefixText ?? String(maxPrefix)) || prefix > maxPrefix) {
      throw new Error(`--trust-proxy must be an IPv4 or IPv6 CIDR such as 10.0.0.0/8 or fd00::/8, got ${JSON.stringify(text)}`);
    }
    list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * How a listener names the client of a keyless request. With no trusted proxies it is the TCP
 * peer. When the peer is a trusted proxy (a load balancer in front of several instances), the
 * client is the rightmost X-Forwarded-For hop that is not itself trusted: every hop to its right
 * was appended by a proxy we trust, while anything to its left was written by the client and can
 * be forged. A header whose hops are all trusted names its leftmost hop; a hop that is not an IP
 * address ends the walk at the trusted hop after it (its writer is the one we can name). An
 * untrusted peer's X-Forwarded-For is ignored: anyone can send one.
 */
export function clientAddressOf(cidrs: readonly string[]): ClientAddressOf {
  if (cidrs.length === 0) return (req) => normalized(req.socket.remoteAddress ?? "?");
  const list = trustedProxies(cidrs);
  return (req) => {
    let client = normalized(req.socket.remoteAddress ?? "?");
    if (!trusted(list, client)) return client;
    const header = req.headers["x-forwarded-for"];
    if (header === undefined) return client;
    const hops = (Array.isArray(header) ? header.join(",") : header).split(",");
    for (const raw of hops.reverse()) {
      const hop = normalized(raw.trim());
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!trusted(list, hop)) return client;
    }
    return client;
  };
}
