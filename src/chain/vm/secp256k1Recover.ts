/*
 * secp256k1 public-key recovery for the `ecrecover` host function (nearcore near-crypto
 * `Secp256K1Signature::recover`, libsecp256k1 semantics): the signer's 64-byte uncompressed
 * key (x ‖ y, big-endian) from a 32-byte hash, a 64-byte r ‖ s signature and a recovery id.
 * Plain bigint arithmetic in Jacobian coordinates; ecrecover is rare and expensive in gas.
 */

const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const G: Affine = [0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n, 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n];

type Affine = readonly [bigint, bigint];
type Jacobian = readonly [bigint, bigint, bigint]; // z = 0: the point at infinity

const mod = (a: bigint, m: bigint): bigint => {
  const r = a % m;
  return r >= 0n ? r : r + m;
};

function pow(base: bigint, exp: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(base, m);
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}

const inv = (a: bigint, m: bigint): bigint => pow(a, m - 2n, m); // m is prime

function double([x, y, z]: Jacobian): Jacobian {
  if (z === 0n || y === 0n) return [0n, 1n, 0n];
  const yy = (y * y) % P;
  const s = (4n * x * yy) % P;
  const m = (3n * x * x) % P;
  const x3 = mod(m * m - 2n * s, P);
  const y3 = mod(m * (s - x3) - 8n * yy * yy, P);
  return [x3, y3, (2n * y * z) % P];
}

function add(a: Jacobian, b: Jacobian): Jacobian {
  if (a[2] === 0n) return b;
  if (b[2] === 0n) return a;
  const z1z1 = (a[2] * a[2]) % P;
  const z2z2 = (b[2] * b[2]) % P;
  const u1 = (a[0] * z2z2) % P;
  const u2 = (b[0] * z1z1) % P;
  const s1 = (a[1] * b[2] * z2z2) % P;
  const s2 = (b[1] * a[2] * z1z1) % P;
  if (u1 === u2) return s1 === s2 ? double(a) : [0n, 1n, 0n];
  const h = mod(u2 - u1, P);
  const r = mod(s2 - s1, P);
  const hh = (h * h) % P;
  const hhh = (h * hh) % P;
  const v = (u1 * hh) % P;
  const x3 = mod(r * r - hhh - 2n * v, P);
  const y3 = mod(r * (v - x3) - s1 * hhh, P);
  return [x3, y3, (a[2] * b[2] * h) % P];
}

function mul(point: Affine, k: bigint): Jacobian {
  let result: Jacobian = [0n, 1n, 0n];
  let addend: Jacobian = [point[0], point[1], 1n];
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = add(result, addend);
    addend = double(addend);
  }
  return result;
}

function toAffine([x, y, z]: Jacobian): Affine | undefined {
  if (z === 0n) return undefined;
  const zi = inv(z, P);
  const zi2 = (zi * zi) % P;
  return [(x * zi2) % P, (y * zi2 * zi) % P];
}

const toBig = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString("hex") || "0"}`);
const to32 = (v: bigint): Buffer => Buffer.from(v.toString(16).padStart(64, "0"), "hex");

/** near-crypto `check_signature_values`: r < n and s < n (s ≤ n/2 when rejecting the upper half). */
export function secp256k1SignatureValuesOk(signature: Uint8Array, rejectUpper: boolean): boolean {
  const r = toBig(signature.subarray(0, 32));
  const s = toBig(signature.subarray(32, 64));
  return r < N && (rejectUpper ? s <= N >> 1n : s < N);
}

/** The 64-byte public key that signed `hash`, or undefined when none does. */
export function secp256k1Recover(hash: Uint8Array, signature: Uint8Array, recoveryId: number): Uint8Array | undefined {
  const r = toBig(signature.subarray(0, 32));
  const s = toBig(signature.subarray(32, 64));
  if (r === 0n || s === 0n || r >= N || s >= N) return undefined;
  const x = recoveryId & 2 ? r + N : r;
  if (x >= P) return undefined;
  const alpha = mod(x * x * x + 7n, P);
  let y = pow(alpha, (P + 1n) / 4n, P);
  if ((y * y) % P !== alpha) return undefined;
  if ((y & 1n) !== BigInt(recoveryId & 1)) y = P - y;
  const e = mod(toBig(hash), N);
  const rInv = inv(r, N);
  const q = toAffine(add(mul([x, y], mod(s * rInv, N)), mul(G, mod(-e * rInv, N))));
  if (q === undefined) return undefined;
  return new Uint8Array(Buffer.concat([to32(q[0]), to32(q[1])]));
}
