import { hash } from "node:crypto";

/** SHA-256 via node's one-shot `crypto.hash` (≈1.5× faster than createHash for small inputs). */
export function sha256(data: Uint8Array): Uint8Array {
  const digest = hash("sha256", data, "buffer");
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
}

/** SHA-256 returning the 32-byte digest as a latin1 string (the trie's in-memory hash form). */
export function sha256Latin1(data: Uint8Array): string {
  return hash("sha256", data, "binary");
}
