import { validateParams } from "../../generated/rpc/validators.js";
import type { RpcMethodName } from "../../generated/rpc/methods.js";
import { rpcMethodTable } from "../../generated/rpc/methods.js";

/** A params object the spec rejects, and what makes it invalid. */
export interface InvalidParams {
  readonly description: string;
  readonly params: unknown;
}

const UNKNOWN_FIELD = "contract_test_unknown_field";

/** A value of another JSON type than `value`. */
function wrongType(value: unknown): unknown {
  if (typeof value === "string") return 12345;
  if (typeof value === "number") return "12345";
  if (typeof value === "boolean") return "true";
  if (value === null) return { null: true };
  if (Array.isArray(value)) return "[]";
  return 7;
}

/** A badly encoded value for fields whose encoding the spec constrains (base58, base64, key, account id). */
function badEncoding(name: string, value: unknown): unknown {
  if (typeof value !== "string") return undefined;
  if (name.endsWith("_base64")) return "not*base64!";
  if (name === "public_key") return "ed25519:0OIl0OIl";
  if (name.endsWith("account_id")) return "Not A Valid Account!";
  return "0OIl-not-base58"; // hashes and ids: base58 has no 0, O, I, l
}

/**
 * Invalid variants of a valid example's params, derived from the params schema: an unknown field
 * (only for methods whose `x-unknown-params` is `deny`; the others ignore it, as nearcore does),
 * each field with a wrong type, each required field missing, numbers at and past the usual bounds
 * (0, -1, 2^32, 2^64) and bad
 * encodings. A variant is kept only when the spec's own params validator rejects it, so the
 * expected answer (PARSE_ERROR) follows from the spec, not from this list.
 */
export function invalidParamsFor(method: RpcMethodName, valid: Record<string, unknown>): InvalidParams[] {
  const candidates: InvalidParams[] =
    rpcMethodTable[method].unknownParams === "deny" ? [{ description: "an unknown field", params: { ...valid, [UNKNOWN_FIELD]: true } }] : [];
  for (const [name, value] of Object.entries(valid)) {
    candidates.push({ description: `${name} of a wrong type`, params: { ...valid, [name]: wrongType(value) } });
    if (typeof value === "number") {
      candidates.push({ description: `${name} zero`, params: { ...valid, [name]: 0 } });
      candidates.push({ description: `${name} negative`, params: { ...valid, [name]: -1 } });
      candidates.push({ description: `${name} beyond 2^32 - 1`, params: { ...valid, [name]: 2 ** 32 } });
      candidates.push({ description: `${name} beyond 2^53`, params: { ...valid, [name]: 2 ** 64 } });
    }
    const encoded = badEncoding(name, value);
    if (encoded !== undefined) candidates.push({ description: `${name} badly encoded`, params: { ...valid, [name]: encoded } });
  }
  const required = new Set<string>([...rpcMethodTable[method].requiredParamNames, ...(valid["request_type"] === undefined ? [] : ["request_type", "account_id"])]);
  for (const name of required) {
    if (!(name in valid)) continue;
    const { [name]: _dropped, ...rest } = valid;
    candidates.push({ description: `${name} missing`, params: rest });
  }
  const validate = validateParams[method];
  return candidates.filter((candidate) => !validate(candidate.params));
}
