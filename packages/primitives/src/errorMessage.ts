/** The message of a caught value: an Error's message, or the value itself as text (a library may throw anything). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The `code` of a caught Node.js system error ("ENOENT", "EEXIST"...), if it has one. */
export function errorCode(e: unknown): string | undefined {
  return e instanceof Error && "code" in e && typeof e.code === "string" ? e.code : undefined;
}
