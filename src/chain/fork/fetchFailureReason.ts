import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/** Why a fetch failed, short: undici's network error code (ECONNREFUSED...) when it has one, else the message. */
export function fetchFailureReason(error: unknown): string {
  const cause = error instanceof Error && isJsonObject(error.cause) ? error.cause : undefined;
  if (typeof cause?.["code"] === "string") return cause["code"];
  if (typeof cause?.["message"] === "string") return cause["message"];
  return error instanceof Error ? error.message : String(error);
}
