import type { IncomingMessage } from "node:http";
import type { AccessDecision } from "./AccessControl.js";

export type { AccessDecision } from "./AccessControl.js";

/**
 * The auth hook a listener runs before routing a request: keys, browser origins and rate caps.
 * `AccessControl` answers synchronously (keys file + in-process limiter); a shared engine (the
 * gateway's Redis gate) may answer with a promise. Callers check for a promise before awaiting,
 * so a synchronous gate costs no microtask on the hot path.
 */
export interface AccessGate {
  /** What to do with a request before routing it (see AccessDecision in AccessControl.ts). */
  check(req: IncomingMessage, url: URL): AccessDecision | Promise<AccessDecision>;
}

/**
 * Runs `next` with the gate's decision: at once when the gate answers synchronously (the hot
 * path pays no microtask), after it settles otherwise. `failed` gets a rejected check and
 * anything `next` throws, on either path.
 */
export function withDecision(
  gate: AccessGate,
  req: IncomingMessage,
  url: URL,
  next: (decision: AccessDecision) => void,
  failed: (error: unknown) => void,
): void {
  const run = (decision: AccessDecision): void => {
    try {
      next(decision);
    } catch (error) {
      failed(error);
    }
  };
  const decision = gate.check(req, url);
  if (decision instanceof Promise) decision.then(run, failed);
  else run(decision);
}
