import { isValidAccountId } from "@shardkit/primitives/accountId";
import { parsePublicKey, PublicKeyError } from "@shardkit/primitives/publicKey";
import { formatPublicKeyAsHandle, formatPublicKeyHandle, parsePublicKeyHandle } from "@shardkit/primitives/publicKeyHandle";

/** FastNEAR's answer to a malformed account id or public key: 400 with a JSON string body. */
export const INVALID_ARGUMENT = { status: 400, body: "Invalid argument" } as const;

/** A valid account id as given (no case folding, as near-account-id), or undefined. */
export function validAccountId(text: string): string | undefined {
  return isValidAccountId(text) ? text : undefined;
}

/**
 * The normalized `<curve>:<base58>` form of a key as near-crypto parses it (curve prefix
 * optional and case-insensitive, exact data length), or undefined when it does not parse. An
 * ML-DSA-65 key, full or as its `ml-dsa-65-hash:` handle, becomes the handle: the chain (and so
 * the index) knows such a key only by it.
 */
export function normalizedPublicKey(text: string): string | undefined {
  try {
    if (text.startsWith("ml-dsa-65-hash:")) return formatPublicKeyHandle(parsePublicKeyHandle(text));
    return formatPublicKeyAsHandle(parsePublicKey(text));
  } catch (error) {
    if (error instanceof PublicKeyError) return undefined;
    throw error;
  }
}
