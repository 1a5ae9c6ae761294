import { hash } from "node:crypto";

/** SHA-256 via node's one-shot `crypto.hash` (≈1.5× faster than createHash for small inputs). */
export function sha256(data: Uint8Array): Uint8Array {
  const digest = hash("sha256", data, "buffer");
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
}
