import type { IncomingMessage } from "node:http";
import type { AccessGate } from "./AccessGate.js";
import { presentedApiKey } from "./apiKeys.js";
import { clientAddressOf, type ClientAddressOf } from "./clientAddress.js";
import { KeyRing } from "./keyRing.js";
import { originAllowed, requestOrigin } from "./originRules.js";
import { RateLimiter } from "./RateLimiter.js";

/** What the listeners do with a request before routing it. */
export type AccessDecision =
  | { readonly kind: "allow" }
  /** 403 text/plain: a key that is not (or no longer) in the keys file. */
  | { readonly kind: "unknown-key" }
  /** 403 {"error":"origin_not_allowed"}: a browser key from an origin it does not list (or none). */
  | { readonly kind: "origin-not-allowed" }
  /** 429 with Retry-After: the key's (or the public path's) cap is used up. */
  | { readonly kind: "rate-limited"; readonly retryAfterSec: number };

export interface AccessControlOptions {
  /** Requests per minute per client address without a key; undefined = no cap. */
  readonly publicRatePerMinute?: number;
  /** Who a keyless request counts as (default: the TCP peer; see clientAddress.ts for `--trust-proxy`). */
  readonly clientAddress?: ClientAddressOf;
  readonly now?: () => number;
}

const ALLOW: AccessDecision = { kind: "allow" };
const UNKNOWN: AccessDecision = { kind: "unknown-key" };
const ORIGIN: AccessDecision = { kind: "origin-not-allowed" };

/**
 * The auth hook every listener (regular RPC, archival RPC, REST) runs first, so one key works
 * on all three and its rate cap counts requests on all three. Keys come from a getter, so a
 * reloaded keys file applies to the next request; a rotated or revoked key stops at once.
 */
export class AccessControl implements AccessGate {
  private readonly limiter: RateLimiter;
  private readonly clientAddress: ClientAddressOf;

  constructor(
    private readonly keys: () => KeyRing,
    private readonly options: AccessControlOptions = {},
  ) {
    this.limiter = new RateLimiter(options.now);
    this.clientAddress = options.clientAddress ?? clientAddressOf([]);
  }

  /** No keys and no public cap: every request without a key passes, every key is refused. */
  static open(): AccessControl {
    return new AccessControl(() => KeyRing.EMPTY);
  }

  check(req: IncomingMessage, url: URL): AccessDecision {
    return decideAccess(req, url, this.keys(), this.options.publicRatePerMinute, this.clientAddress, this.limited);
  }

  private readonly limited = (client: string, perMinute: number): AccessDecision => {
    const wait = this.limiter.take(client, perMinute);
    return wait === 0 ? ALLOW : { kind: "rate-limited", retryAfterSec: wait };
  };
}

/**
 * The rules every access gate applies (AccessControl here, RedisAccessGate in the gateway); only
 * where the keys and the rate counters live differs. `limited` takes one request from a
 * client's bucket: `key:<sha256>` for a capped key, `ip:<address>` for a keyless request.
 */
export function decideAccess<R>(
  req: IncomingMessage,
  url: URL,
  keys: KeyRing,
  publicRatePerMinute: number | undefined,
  clientAddress: ClientAddressOf,
  limited: (client: string, perMinute: number) => R,
): AccessDecision | R {
  const presented = presentedApiKey(req, url);
  if (presented === undefined) {
    return publicRatePerMinute === undefined ? ALLOW : limited(`ip:${clientAddress(req)}`, publicRatePerMinute);
  }
  const key = keys.lookup(presented);
  if (key === undefined) return UNKNOWN;
  if (key.kind === "browser") {
    const origin = requestOrigin(req.headers);
    if (origin === undefined || !originAllowed(origin, key.origins)) return ORIGIN;
  }
  return key.ratePerMinute === null ? ALLOW : limited(`key:${key.sha256}`, key.ratePerMinute);
}
