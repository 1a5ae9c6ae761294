import { hash } from "node:crypto";

/**
 * SHA-256 (FIPS 180-4). Inputs of up to 119 bytes, which pad to at most two blocks, are hashed
 * here in JavaScript: that is most of what block production hashes (receipt ids, outcome
 * hashes, Merkle nodes). A call into node:crypto costs ~1 µs whatever the input, and its
 * digest is a Buffer over its own ArrayBuffer; here one or two blocks take ~0.4-0.7 µs and the
 * digest is a plain 32-byte Uint8Array, which V8 keeps on its heap. Longer inputs go to
 * node's one-shot `crypto.hash` (≈1.5× faster than createHash for small inputs), which wins
 * from the third block on.
 */
export function sha256(data: Uint8Array): Uint8Array {
  if (data.length <= SHORT_MAX_BYTES) return sha256Short(data);
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

/** The longest input hashed in JavaScript: with the 0x80 byte and the 8-byte length it fills two blocks. */
const SHORT_MAX_BYTES = 119;

const K = Int32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);
const IV = Int32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
/** The hash state, the message schedule and the padded tail: one call at a time (JS is single-threaded). */
const H = new Int32Array(8);
const W = new Int32Array(64);
const TAIL = new Uint8Array(128);

function sha256Short(data: Uint8Array): Uint8Array {
  H.set(IV);
  const n = data.length;
  // At most one whole block comes before the tail (n <= 119).
  const head = n >= 64 ? 64 : 0;
  if (head > 0) compress(data, 0);
  const rest = n - head;
  for (let i = 0; i < rest; i++) TAIL[i] = data[head + i]!;
  TAIL[rest] = 0x80;
  const end = rest + 9 <= 64 ? 64 : 128;
  // Zeros up to the 64-bit big-endian bit length, whose high word is zero here.
  TAIL.fill(0, rest + 1, end - 4);
  const bits = n * 8;
  TAIL[end - 4] = bits >>> 24;
  TAIL[end - 3] = bits >>> 16;
  TAIL[end - 2] = bits >>> 8;
  TAIL[end - 1] = bits;
  compress(TAIL, 0);
  if (end === 128) compress(TAIL, 64);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    out[4 * i] = v >>> 24;
    out[4 * i + 1] = v >>> 16;
    out[4 * i + 2] = v >>> 8;
    out[4 * i + 3] = v;
  }
  return out;
}

/** One 64-byte block of `bytes` from `at` into H. */
function compress(bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) W[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H[0]!, b = H[1]!, c = H[2]!, d = H[3]!, e = H[4]!, f = H[5]!, g = H[6]!, h = H[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + b) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}
