import { isValidAccountId } from "@shardkit/primitives/accountId";

/** Strings nested this deep or deeper are not looked at (hostile arguments cannot recurse us out). */
const MAX_DEPTH = 16;

/**
 * Account ids named as string values anywhere in a parsed JSON value (function-call
 * arguments, NEP-297 event data). A string counts when it is a valid account id and not only
 * digits (amounts like "1000" are valid account ids too, but name no account).
 */
export function accountsNamedIn(value: unknown, into: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > MAX_DEPTH) return into;
  if (typeof value === "string") {
    if (value.length >= 2 && value.length <= 64 && !/^[0-9]+$/.test(value) && isValidAccountId(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) accountsNamedIn(item, into, depth + 1);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) accountsNamedIn(item, into, depth + 1);
  }
  return into;
}

/** Parses function-call arguments as JSON; undefined when they are not JSON (borsh, raw bytes). */
export function jsonArguments(base64Args: string): unknown {
  try {
    return JSON.parse(Buffer.from(base64Args, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
}
