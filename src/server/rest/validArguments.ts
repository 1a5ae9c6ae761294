import { isValidAccountId } from "@shardkit/primitives/accountId";
import { formatPublicKey, parsePublicKey, PublicKeyError } from "@shardkit/primitives/publicKey";

/** FastNEAR's answer to a malformed account id or public key: 400 with a JSON string body. */
export const INVALID_ARGUMENT = { status: 400, body: "Invalid argument" } as const;

/** A valid account id as given (no case folding, as near-account-id), or undefined. */
export function validAccountId(text: string): string | undefined {
  return isValidAccountId(text) ? text : undefined;
}

/**
 * The normalized `<curve>:<base58>` form of a key as near-crypto parses it (curve prefix
 * optional and case-insensitive, exact data length), or undefined when it does not parse.
 */
export function normalizedPublicKey(text: string): string | undefined {
  try {
    return formatPublicKey(parsePublicKey(text));
  } catch (error) {
    if (error instanceof PublicKeyError) return undefined;
    throw error;
  }
}
