/** A JSON object (not null, not an array): its fields can be read by name, each as `unknown`. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
