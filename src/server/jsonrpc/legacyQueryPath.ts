import { Base58Error, base58Decode } from "../../chain/primitives/base58.js";
import { base64Encode } from "../../chain/primitives/base64.js";
import { ParseError } from "../errors.js";

/**
 * nearcore's oldest `query` form: `[path, data]` with `path` one of `account/<id>`,
 * `access_key/<id>`, `access_key/<id>/<public key>` or `contract/<id>` and `data` base58
 * bytes (the state key prefix for `contract/`). It reads at the optimistic head, as nearcore
 * does. `code/` and `call/` name request types this server does not implement yet.
 */
export function legacyQueryParams(args: unknown[]): Record<string, unknown> {
  if (args.length !== 2 || typeof args[0] !== "string" || typeof args[1] !== "string") {
    throw new ParseError("Failed parsing args: a positional query takes [path, data], both strings");
  }
  const [path, data] = args as [string, string];
  const [kind, accountId, ...rest] = path.split("/");
  const at = { finality: "optimistic" };
  if (accountId === undefined || accountId === "") throw unknownPath(path);
  if (kind === "account" && rest.length === 0) return { request_type: "view_account", account_id: accountId, ...at };
  if (kind === "access_key" && rest.length === 0) return { request_type: "view_access_key_list", account_id: accountId, ...at };
  if (kind === "access_key" && rest.length === 1) {
    return { request_type: "view_access_key", account_id: accountId, public_key: rest[0], ...at };
  }
  if (kind === "contract" && rest.length === 0) {
    return { request_type: "view_state", account_id: accountId, prefix_base64: base64Encode(base58Data(data)), ...at };
  }
  throw unknownPath(path);
}

function base58Data(data: string): Uint8Array {
  try {
    return base58Decode(data);
  } catch (error) {
    if (error instanceof Base58Error) throw new ParseError(`Failed parsing args: query data must be base58: ${error.message}`);
    throw error;
  }
}

function unknownPath(path: string): ParseError {
  return new ParseError(`Failed parsing args: unsupported query path ${JSON.stringify(path)}`);
}
