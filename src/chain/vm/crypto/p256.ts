import { p256 } from "@noble/curves/p256";

/*
 * P-256 ECDSA verification as nearcore's p256_verify does it (NEP-635; RustCrypto's p256
 * `Signature::from_slice`, `VerifyingKey::from_sec1_bytes` and `verify_prehash`): the message is
 * the prehash (nothing is hashed here), high-s signatures are accepted.
 */

const { n: N, Fp, a: A, b: B } = p256.CURVE;
const Point = p256.ProjectivePoint;
type Point = InstanceType<typeof Point>;

export const P256_SIGNATURE_LENGTH = 64;
export const P256_PUBLIC_KEY_LENGTH = 33;

const be = (bytes: Uint8Array): bigint => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString("hex")}`));

/** r ‖ s, big-endian, each in [1, n): undefined otherwise (`Signature::from_slice`). */
export function parseP256Signature(sig: Uint8Array): { r: bigint; s: bigint } | undefined {
  const r = be(sig.subarray(0, 32));
  const s = be(sig.subarray(32, 64));
  return r > 0n && r < N && s > 0n && s < N ? { r, s } : undefined;
}

/** A compressed SEC1 key (0x02/0x03 ‖ x): the curve point, or undefined. */
export function parseP256PublicKey(key: Uint8Array): Point | undefined {
  const tag = key[0];
  if (key.length !== P256_PUBLIC_KEY_LENGTH || (tag !== 2 && tag !== 3)) return undefined;
  const x = be(key.subarray(1));
  if (x >= Fp.ORDER) return undefined;
  let y: bigint;
  try {
    y = Fp.sqrt(Fp.add(Fp.add(Fp.mul(Fp.sqr(x), x), Fp.mul(A, x)), B));
  } catch {
    return undefined; // x³ + ax + b is not a square: no point
  }
  if ((y & 1n) !== BigInt(tag & 1)) y = Fp.neg(y);
  return Point.fromAffine({ x, y });
}

/**
 * ecdsa's bits2field then reduction mod n: a prehash shorter than half the field size is refused
 * (undefined), a longer one is cut to its leading 32 bytes, a shorter one is read as a number.
 */
function prehashScalar(prehash: Uint8Array): bigint | undefined {
  if (prehash.length < 16) return undefined;
  return be(prehash.subarray(0, 32)) % N;
}

/** ECDSA verification of a parsed signature over `prehash` by `key`. */
export function p256VerifyPrehash(signature: { r: bigint; s: bigint }, prehash: Uint8Array, key: Point): boolean {
  const z = prehashScalar(prehash);
  if (z === undefined) return false;
  const { r, s } = signature;
  const w = invert(s);
  const u1 = (z * w) % N;
  const u2 = (r * w) % N;
  const R = Point.BASE.multiplyUnsafe(u1).add(key.multiplyUnsafe(u2));
  if (R.equals(Point.ZERO)) return false;
  return R.toAffine().x % N === r;
}

/** s⁻¹ mod n (n is prime; s is in [1, n)). */
function invert(s: bigint): bigint {
  let [a, b, x, y] = [s, N, 1n, 0n];
  while (b !== 0n) {
    const q = a / b;
    [a, b] = [b, a - q * b];
    [x, y] = [y, x - q * y];
  }
  return ((x % N) + N) % N;
}
