import { base58Decode, base58Encode } from "@shardkit/primitives/base58";

/** A 32-byte hash (block, chunk, state root, code hash), base58 on the wire. */
export type CryptoHash = Uint8Array;

export const CRYPTO_HASH_LEN = 32;

/** The all-zero hash nearcore uses for "none" (empty state root, first epoch id, no code). */
export const ZERO_HASH: CryptoHash = new Uint8Array(CRYPTO_HASH_LEN);

/** base58 of {@link ZERO_HASH}: 32 '1's. */
export const ZERO_HASH_BASE58 = "11111111111111111111111111111111";

/** Formats a 32-byte hash as base58. */
export function formatCryptoHash(hash: CryptoHash): string {
  if (hash.length !== CRYPTO_HASH_LEN) {
    throw new RangeError(`a crypto hash has ${CRYPTO_HASH_LEN} bytes, got ${hash.length}`);
  }
  // Accounts without code carry the zero hash: answer it without encoding.
  return hash.every((byte) => byte === 0) ? ZERO_HASH_BASE58 : base58Encode(hash);
}

/** Parses base58 text into a 32-byte hash; throws on bad base58 or wrong length. */
export function parseCryptoHash(text: string): CryptoHash {
  const bytes = base58Decode(text);
  if (bytes.length !== CRYPTO_HASH_LEN) {
    throw new RangeError(`a crypto hash has ${CRYPTO_HASH_LEN} bytes, ${JSON.stringify(text)} decodes to ${bytes.length}`);
  }
  return bytes;
}
