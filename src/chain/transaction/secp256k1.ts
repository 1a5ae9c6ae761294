import { createHmac } from "node:crypto";
import { KeyType, type PublicKey } from "../primitives/publicKey.js";

/*
 * secp256k1 ECDSA over a 32-byte message hash, in plain bigint arithmetic. NEAR signs the
 * transaction hash itself (no further hashing), and node:crypto cannot do that: with a null
 * algorithm it hashes EC input with SHA-256 again, and it has no raw-ECDSA entry point. No
 * package is needed for this; @noble/curves would be faster if secp256k1 traffic matters.
 * Semantics follow nearcore `Signature::verify` (near-crypto) on top of libsecp256k1.
 */

const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;
const GX = 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n;
const GY = 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n;

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r >= 0n ? r : r + m;
}

/** Modular inverse by the extended Euclidean algorithm (m prime, a ≠ 0 mod m). */
function inv(a: bigint, m: bigint): bigint {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return mod(s0, m);
}

/** Jacobian point (x/z², y/z³); z = 0 is the point at infinity. */
interface Jac {
  readonly x: bigint;
  readonly y: bigint;
  readonly z: bigint;
}
const INF: Jac = { x: 0n, y: 1n, z: 0n };
const G: Jac = { x: GX, y: GY, z: 1n };

function double(p: Jac): Jac {
  if (p.z === 0n || p.y === 0n) return INF;
  const yy = mod(p.y * p.y, P);
  const s = mod(4n * p.x * yy, P);
  const m = mod(3n * p.x * p.x, P); // a = 0 on secp256k1
  const x = mod(m * m - 2n * s, P);
  const y = mod(m * (s - x) - 8n * yy * yy, P);
  return { x, y, z: mod(2n * p.y * p.z, P) };
}

function add(p: Jac, q: Jac): Jac {
  if (p.z === 0n) return q;
  if (q.z === 0n) return p;
  const z1z1 = mod(p.z * p.z, P);
  const z2z2 = mod(q.z * q.z, P);
  const u1 = mod(p.x * z2z2, P);
  const u2 = mod(q.x * z1z1, P);
  const s1 = mod(p.y * q.z * z2z2, P);
  const s2 = mod(q.y * p.z * z1z1, P);
  if (u1 === u2) return s1 === s2 ? double(p) : INF;
  const h = mod(u2 - u1, P);
  const r = mod(s2 - s1, P);
  const hh = mod(h * h, P);
  const hhh = mod(h * hh, P);
  const v = mod(u1 * hh, P);
  const x = mod(r * r - hhh - 2n * v, P);
  const y = mod(r * (v - x) - s1 * hhh, P);
  return { x, y, z: mod(p.z * q.z * h, P) };
}

/** a·A + b·B with one shared doubling chain (Shamir's trick). */
function mulAdd(a: bigint, pa: Jac, b: bigint, pb: Jac): Jac {
  const both = add(pa, pb);
  let acc = INF;
  for (let i = 255n; i >= 0n; i--) {
    acc = double(acc);
    const bitA = (a >> i) & 1n;
    const bitB = (b >> i) & 1n;
    if (bitA === 1n && bitB === 1n) acc = add(acc, both);
    else if (bitA === 1n) acc = add(acc, pa);
    else if (bitB === 1n) acc = add(acc, pb);
  }
  return acc;
}

function toAffine(p: Jac): { x: bigint; y: bigint } {
  const zi = inv(p.z, P);
  const zi2 = mod(zi * zi, P);
  return { x: mod(p.x * zi2, P), y: mod(p.y * zi2 * zi, P) };
}

function toBig(bytes: Uint8Array): bigint {
  return bytes.length === 0
    ? 0n
    : BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex")}`);
}

function to32(v: bigint): Uint8Array {
  return new Uint8Array(Buffer.from(v.toString(16).padStart(64, "0"), "hex"));
}

/**
 * Verifies a NEAR secp256k1 signature (r ‖ s ‖ v, 65 bytes) over a 32-byte hash against a
 * 64-byte uncompressed public key (x ‖ y, no 0x04). Like nearcore/libsecp256k1 it requires
 * v ≤ 3, 0 < r, s < n, a low s (s ≤ n/2) and a key on the curve; v is otherwise unused.
 */
export function secp256k1Verify(hash: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (hash.length !== 32 || signature.length !== 65 || publicKey.length !== 64) return false;
  if (signature[64]! > 3) return false;
  const r = toBig(signature.subarray(0, 32));
  const s = toBig(signature.subarray(32, 64));
  if (r === 0n || r >= N || s === 0n || s > HALF_N) return false;
  const qx = toBig(publicKey.subarray(0, 32));
  const qy = toBig(publicKey.subarray(32, 64));
  if (qx >= P || qy >= P || mod(qy * qy - qx * qx * qx - 7n, P) !== 0n) return false;
  const z = mod(toBig(hash), N);
  const w = inv(s, N);
  const point = mulAdd(mod(z * w, N), G, mod(r * w, N), { x: qx, y: qy, z: 1n });
  if (point.z === 0n) return false;
  return mod(toAffine(point).x, N) === r;
}

/** RFC 6979 HMAC-SHA256 nonce stream, as libsecp256k1 seeds it (key ‖ hash mod n, no extra data). */
function* rfc6979(secret: Uint8Array, hashModN: Uint8Array): Generator<bigint> {
  const hmac = (key: Uint8Array, ...parts: Uint8Array[]) => {
    const h = createHmac("sha256", key);
    for (const p of parts) h.update(p);
    return new Uint8Array(h.digest());
  };
  let k: Uint8Array = new Uint8Array(32);
  let v: Uint8Array = new Uint8Array(32).fill(1);
  k = hmac(k, v, Uint8Array.of(0), secret, hashModN);
  v = hmac(k, v);
  k = hmac(k, v, Uint8Array.of(1), secret, hashModN);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    yield toBig(v);
    k = hmac(k, v, Uint8Array.of(0));
    v = hmac(k, v);
  }
}

function checkSecret(secret: Uint8Array): bigint {
  const d = secret.length === 32 ? toBig(secret) : 0n;
  if (d === 0n || d >= N) throw new RangeError("secp256k1 secret key must be 32 bytes in [1, n-1]");
  return d;
}

/** The 64-byte public key (x ‖ y) of a 32-byte secret key. */
export function secp256k1PublicKeyOf(secret: Uint8Array): Uint8Array {
  const { x, y } = toAffine(mulAdd(checkSecret(secret), G, 0n, INF));
  const out = new Uint8Array(64);
  out.set(to32(x), 0);
  out.set(to32(y), 32);
  return out;
}

/**
 * Signs a 32-byte hash deterministically (RFC 6979) and returns r ‖ s ‖ v with a low s, as
 * libsecp256k1's recoverable signing does (so the bytes match nearcore's `SecretKey::sign`).
 */
export function secp256k1Sign(hash: Uint8Array, secret: Uint8Array): Uint8Array {
  if (hash.length !== 32) throw new RangeError("secp256k1 signs a 32-byte hash");
  const d = checkSecret(secret);
  const z = mod(toBig(hash), N);
  for (const k of rfc6979(secret, to32(z))) {
    if (k === 0n || k >= N) continue;
    const R = toAffine(mulAdd(k, G, 0n, INF));
    const r = mod(R.x, N);
    if (r === 0n) continue;
    let s = mod(inv(k, N) * (z + r * d), N);
    if (s === 0n) continue;
    let recovery = Number(R.y & 1n) | (R.x >= N ? 2 : 0);
    if (s > HALF_N) {
      s = N - s;
      recovery ^= 1;
    }
    const out = new Uint8Array(65);
    out.set(to32(r), 0);
    out.set(to32(s), 32);
    out[64] = recovery;
    return out;
  }
  throw new Error("unreachable: the RFC 6979 stream is infinite");
}

/** A secp256k1 key pair with the same signing shape as `Ed25519KeyPair`. */
export interface Secp256k1KeyPair {
  readonly publicKey: PublicKey;
  /** Signs a 32-byte hash; returns the 65-byte r ‖ s ‖ v. */
  sign(hash: Uint8Array): Uint8Array;
}

export function secp256k1FromSecret(secret: Uint8Array): Secp256k1KeyPair {
  const copy = secret.slice();
  const publicKey: PublicKey = { keyType: KeyType.SECP256K1, data: secp256k1PublicKeyOf(copy) };
  return { publicKey, sign: (hash) => secp256k1Sign(hash, copy) };
}
