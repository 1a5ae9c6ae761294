import type { ErrorObject } from "ajv";

/**
 * One short, schema-free sentence for the first validation error, in the spirit of serde's
 * messages that nearcore returns ("unknown field `x`", "missing field `y`").
 */
export function validationMessage(errors: readonly ErrorObject[] | null | undefined): string {
  const error = errors?.[0];
  if (!error) return "invalid params";
  const where = error.instancePath === "" ? "params" : `params${error.instancePath}`;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties":
      return `unknown field \`${String(p.additionalProperty)}\` in ${where}`;
    case "unevaluatedProperties":
      return `unknown field \`${String(p.unevaluatedProperty)}\` in ${where}`;
    case "required":
      return `missing field \`${String(p.missingProperty)}\` in ${where}`;
    case "enum":
      return `${where} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `${where} must be ${JSON.stringify(p.allowedValue)}`;
    case "not": {
      // The spec describes each prohibition; the generator keeps that text for us.
      const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
      return typeof description === "string" ? description : `${where} ${error.message ?? "is invalid"}`;
    }
    case "discriminator":
      return p.tagValue === undefined
        ? `missing field \`${String(p.tag)}\` in ${where}`
        : `unknown variant ${JSON.stringify(p.tagValue)} for \`${String(p.tag)}\``;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}
