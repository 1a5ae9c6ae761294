import { IndexUnavailableError } from "../IndexUnavailableError.js";

/** Node socket errors: the database host cannot be reached or dropped the connection. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ENOENT"]);

/**
 * PostgreSQL SQLSTATEs of a database that is away rather than of a bad query: class 08
 * (connection exception), 57P01-57P03 (admin or crash shutdown, cannot connect now) and 53300
 * (too many connections).
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300";
}

/** node-postgres's own messages for a session that died or never came up. */
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|not queryable/i;

/**
 * The error as an IndexUnavailableError when it says the database is unreachable (so callers
 * answer 503 and recover by themselves), else undefined (a real failure: a bug or a broken schema).
 */
export function connectionFailure(error: unknown): IndexUnavailableError | undefined {
  if (error instanceof IndexUnavailableError) return error;
  if (!(error instanceof Error)) return undefined;
  const code = "code" in error ? error.code : undefined;
  const byCode = typeof code === "string" && (SOCKET_CODES.has(code) || isUnavailableState(code));
  if (!byCode && !DRIVER_MESSAGES.test(error.message)) return undefined;
  // AggregateError (several addresses refused) has an empty message: name its first cause.
  const first: unknown = error instanceof AggregateError ? error.errors[0] : undefined;
  const reason = error.message !== "" ? error.message : first instanceof Error ? first.message : String(code);
  return new IndexUnavailableError(reason, { cause: error });
}
