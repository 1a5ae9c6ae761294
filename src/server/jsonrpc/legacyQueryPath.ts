import { base58Decode } from "@shardkit/primitives/base58";
import { base64Encode } from "../../chain/primitives/base64.js";
import { formatPublicKey, parsePublicKey, PublicKeyError } from "@shardkit/primitives/publicKey";
import { ParseError } from "../errors.js";
import { accountIdParseError } from "./accountIdParseError.js";

/** nearcore's cap on the legacy query's path plus decoded data, in bytes. */
const QUERY_DATA_MAX_SIZE = 10 * 1024;
const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * nearcore's oldest `query` form, `[path, data]`, normalised to the by-name params: `path` is
 * split in at most three parts on '/' (`<command>/<account id>/<rest>`) and `data` is base58
 * bytes (the state key prefix for `contract/`, the arguments for `call/`). It reads at the
 * optimistic head, as nearcore does. Commands and their failures follow nearcore's
 * `parse_path_data`, messages included (they carry no "Failed parsing args" prefix there).
 */
export function legacyQueryParams(args: unknown[]): Record<string, unknown> {
  const [path, data] = args;
  if (args.length !== 2 || typeof path !== "string" || typeof data !== "string") {
    throw new ParseError("Failed parsing args: a positional query takes [path, data], both strings");
  }
  const [command, accountId, extra] = splitN(path, "/", 3);
  if (command === undefined || accountId === undefined) throw new ParseError("Not enough query parameters provided");
  const invalid = accountIdParseError(accountId);
  if (invalid !== undefined) throw new ParseError(invalid);
  const at = { finality: "optimistic", account_id: accountId };
  switch (command) {
    case "account":
      return { request_type: "view_account", ...at };
    case "access_key":
      return extra === undefined
        ? { request_type: "view_access_key_list", ...at }
        : { request_type: "view_access_key", ...at, public_key: legacyPublicKey(extra) };
    case "code":
      return { request_type: "view_code", ...at };
    case "contract":
      return { request_type: "view_state", ...at, prefix_base64: base64Encode(legacyData(path, data)) };
    case "call":
      if (extra === undefined) throw new ParseError("Method name is missing");
      return { request_type: "call_function", ...at, method_name: extra, args_base64: base64Encode(legacyData(path, data)) };
    default:
      throw new ParseError(`Unknown path ${command}`);
  }
}

/** Rust's `splitn`: at most `limit` parts, the last one keeping any further separators. */
function splitN(text: string, separator: string, limit: number): string[] {
  const parts = text.split(separator);
  return parts.length <= limit ? parts : [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(separator)];
}

/** The key in its canonical spelling (a bare base58 key is ed25519); nearcore has one message. */
function legacyPublicKey(text: string): string {
  try {
    return formatPublicKey(parsePublicKey(text));
  } catch (error) {
    if (error instanceof PublicKeyError) throw new ParseError("Invalid public key");
    throw error;
  }
}

/** The base58 data, with the bs58 crate's messages and nearcore's size cap. */
function legacyData(path: string, data: string): Uint8Array {
  let byte = 0;
  for (const char of data) {
    if (!BASE58_ALPHABET.includes(char)) {
      throw new ParseError(`provided string contained invalid character ${JSON.stringify(char).replace(/^"|"$/g, "'")} at byte ${byte}`);
    }
    byte += Buffer.byteLength(char, "utf8");
  }
  const bytes = base58Decode(data);
  if (bytes.length > Math.max(0, QUERY_DATA_MAX_SIZE - Buffer.byteLength(path, "utf8"))) throw new ParseError("Query data size is too large");
  return bytes;
}
