import type { AccessKey, AccessKeyPermission } from "@shardkit/primitives/accessKey";
import { isValidAccountId } from "@shardkit/primitives/accountId";
import { Base64Error, base64DecodeToLatin1 } from "../primitives/base64.js";
import { ZERO_HASH, parseCryptoHash, type CryptoHash } from "../primitives/cryptoHash.js";
import { U128_MAX, U64_MAX } from "../primitives/integerLimits.js";
import { PublicKeyError, parsePublicKey, type PublicKey } from "@shardkit/primitives/publicKey";
import { GenesisError } from "./GenesisError.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

/**
 * One genesis state record, validated and decoded. Data keys/values and code are latin1
 * byte strings (one char per byte), the state trie's own form, so that loading millions
 * of records allocates no intermediate byte arrays.
 */
export type StateRecord =
  | {
      readonly kind: "Account";
      readonly accountId: string;
      readonly amount: bigint;
      readonly locked: bigint;
      readonly codeHash: CryptoHash;
      /** The record's storage_usage: a genesis recomputes it, a sandbox patch writes it as given. */
      readonly storageUsage?: number;
    }
  | { readonly kind: "AccessKey"; readonly accountId: string; readonly publicKey: PublicKey; readonly accessKey: AccessKey }
  | { readonly kind: "Data"; readonly accountId: string; readonly key: string; readonly value: string }
  | { readonly kind: "Contract"; readonly accountId: string; readonly code: string };

const DECIMAL = /^(0|[1-9][0-9]*)$/;

type Json = Record<string, unknown>;

/**
 * Parses one element of nearcore's genesis `records` array:
 * `{"Account":{account_id, account:{amount, locked, code_hash, storage_usage, ...}}}`,
 * `{"AccessKey":{account_id, public_key, access_key:{nonce, permission}}}`,
 * `{"Data":{account_id, data_key, value}}` (base64) and `{"Contract":{account_id, code}}`.
 * Unknown fields are ignored, as nearcore's serde types do. Any other shape throws
 * a {@link GenesisError} naming the record index.
 */
export function parseStateRecord(json: unknown, index: number): StateRecord {
  if (!isObject(json)) fail(index, "a record must be a JSON object");
  let kind: string | undefined;
  for (const k in json) {
    if (kind !== undefined) fail(index, `a record must have exactly one kind, got ${JSON.stringify(Object.keys(json))}`);
    kind = k;
  }
  if (kind === undefined) fail(index, "a record must have exactly one kind, got []");
  const body = json[kind];
  if (!isObject(body)) fail(index, `${kind} record body must be an object`);
  const accountId = body["account_id"];
  if (typeof accountId !== "string" || !isValidAccountId(accountId)) {
    fail(index, `${kind}.account_id ${JSON.stringify(accountId)} is not a valid account id`);
  }
  switch (kind) {
    case "Data":
      return {
        kind,
        accountId,
        key: base64Field(body["data_key"], "Data.data_key", index),
        value: base64Field(body["value"], "Data.value", index),
      };
    case "Account": {
      const account = body["account"];
      if (!isObject(account)) fail(index, "Account.account must be an object");
      return {
        kind,
        accountId,
        amount: uint(account["amount"], "Account.account.amount", U128_MAX, index),
        locked: account["locked"] === undefined ? 0n : uint(account["locked"], "Account.account.locked", U128_MAX, index),
        codeHash: account["code_hash"] === undefined ? ZERO_HASH : hashField(account["code_hash"], "Account.account.code_hash", index),
        ...(account["storage_usage"] !== undefined && {
          storageUsage: Number(uint(account["storage_usage"], "Account.account.storage_usage", BigInt(Number.MAX_SAFE_INTEGER), index)),
        }),
      };
    }
    case "AccessKey": {
      const ak = body["access_key"];
      if (!isObject(ak)) fail(index, "AccessKey.access_key must be an object");
      return {
        kind,
        accountId,
        publicKey: publicKeyField(body["public_key"], index),
        accessKey: {
          nonce: uint(ak["nonce"], "AccessKey.access_key.nonce", U64_MAX, index),
          permission: permission(ak["permission"], index),
        },
      };
    }
    case "Contract":
      return { kind, accountId, code: base64Field(body["code"], "Contract.code", index) };
    default:
      return fail(index, `unsupported record kind ${JSON.stringify(kind)} (expected Account, AccessKey, Data or Contract)`);
  }
}

function fail(index: number, message: string): never {
  throw new GenesisError(message, index);
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** u64/u128 as a decimal string (nearcore's form) or a safe JSON integer. */
function uint(v: unknown, name: string, max: bigint, index: number): bigint {
  let n: bigint;
  if (typeof v === "string" && DECIMAL.test(v)) n = BigInt(v);
  else if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) n = BigInt(v);
  else return fail(index, `${name} must be a non-negative decimal integer, got ${JSON.stringify(v)}`);
  if (n > max) fail(index, `${name} ${n} is out of range`);
  return n;
}

function hashField(v: unknown, name: string, index: number): CryptoHash {
  if (typeof v !== "string") fail(index, `${name} must be a base58 string`);
  try {
    return parseCryptoHash(v);
  } catch (e) {
    return fail(index, `${name}: ${errorMessage(e)}`);
  }
}

function base64Field(v: unknown, name: string, index: number): string {
  if (typeof v !== "string") fail(index, `${name} must be a base64 string`);
  try {
    return base64DecodeToLatin1(v);
  } catch (e) {
    if (e instanceof Base64Error) fail(index, `${name}: ${e.message}`);
    throw e;
  }
}

function publicKeyField(v: unknown, index: number): PublicKey {
  if (typeof v !== "string") fail(index, "AccessKey.public_key must be a string");
  try {
    return parsePublicKey(v);
  } catch (e) {
    if (e instanceof PublicKeyError) fail(index, `AccessKey.public_key: ${e.message}`);
    throw e;
  }
}

function permission(v: unknown, index: number): AccessKeyPermission {
  if (v === "FullAccess") return "FullAccess";
  if (!isObject(v) || !isObject(v["FunctionCall"])) {
    fail(index, `AccessKey.access_key.permission must be "FullAccess" or {"FunctionCall":{...}}, got ${JSON.stringify(v)}`);
  }
  const fc = v["FunctionCall"];
  const allowance = fc["allowance"] === null || fc["allowance"] === undefined ? null : uint(fc["allowance"], "FunctionCall.allowance", U128_MAX, index);
  const receiverId = fc["receiver_id"];
  if (typeof receiverId !== "string") fail(index, "FunctionCall.receiver_id must be a string");
  const methods = fc["method_names"] ?? [];
  if (!Array.isArray(methods) || !methods.every((m): m is string => typeof m === "string")) {
    fail(index, "FunctionCall.method_names must be an array of strings");
  }
  return { FunctionCall: { allowance, receiverId, methodNames: methods } };
}
