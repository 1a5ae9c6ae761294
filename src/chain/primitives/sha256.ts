import { hash } from "node:crypto";

/** SHA-256 via node's one-shot `crypto.hash` (≈1.5× faster than createHash for small inputs). */
export function sha256(data: Uint8Array): Uint8Array {
  const digest = hash("sha256", data, "buffer");
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
}

/**
 * SHA-256 of `text` in UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them), hashed
 * from the string: no encoded copy is made first (outcome hashes take one per log line).
 */
export function sha256Utf8(text: string): Uint8Array {
  const digest = hash("sha256", text, "buffer");
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
}
