import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { loadedOnFirstUse } from "./loadedOnFirstUse.js";
import { at, byteAt } from "../../must.js";

/*
 * BLS12-381 operations as nearcore's host functions do them (near-vm-runner logic/bls12381.rs
 * over blst, version 0: `bls12381_not_in_group_fix` is off in the protocol shardkit follows).
 * Encodings are blst's (ZCash): Fp big-endian in 48 bytes, Fp2 = c1 ‖ c0, points uncompressed
 * x ‖ y with the three top bits of the first byte as flags (0x80 compressed, 0x40 infinity,
 * 0x20 sign of y); scalars are 32-byte little-endian. Each operation answers the output bytes,
 * or undefined where nearcore returns 1 (an invalid point, sign or field element); an input
 * length that is not a multiple of the item size throws Bls12381Error (BLS12381InvalidInput).
 * The curve is loaded by the first operation (`loadCurve`), not when the VM is imported.
 */

type Bls = (typeof import("@noble/curves/bls12-381"))["bls12_381"];
type Fp2 = ReturnType<Bls["fields"]["Fp2"]["fromBigTuple"]>;
type G1Point = InstanceType<Bls["G1"]["ProjectivePoint"]>;
type G2Point = InstanceType<Bls["G2"]["ProjectivePoint"]>;
const noble = loadedOnFirstUse<typeof import("@noble/curves/bls12-381")>("@noble/curves/bls12-381");
let bls12_381: Bls | undefined;
let Fp: Bls["fields"]["Fp"];
let Fp2: Bls["fields"]["Fp2"];
let Fp12: Bls["fields"]["Fp12"];
let G1: Bls["G1"]["ProjectivePoint"];
let G2: Bls["G2"]["ProjectivePoint"];
let R: bigint;
let HALF_P: bigint;
let B2: Fp2;
const B1 = 4n;

/** Every exported operation calls this first: the curve and its constants. */
function loadCurve(): Bls {
  if (bls12_381 !== undefined) return bls12_381;
  const curve = noble().bls12_381;
  ({ Fp, Fp2, Fp12 } = curve.fields);
  G1 = curve.G1.ProjectivePoint;
  G2 = curve.G2.ProjectivePoint;
  R = curve.params.r;
  HALF_P = (Fp.ORDER - 1n) / 2n;
  B2 = Fp2.fromBigTuple([4n, 4n]);
  return (bls12_381 = curve);
}

const FP = 48;
const FP2 = 96;
const P1 = 96;
const P2 = 192;
const SCALAR = 32;

/** Item sizes, as nearcore's `bls12381_impl!` divides value_len by them for the element charge. */
export const BLS_ITEM = {
  p1Sum: 1 + P1,
  p2Sum: 1 + P2,
  g1Multiexp: P1 + SCALAR,
  g2Multiexp: P2 + SCALAR,
  mapFpToG1: FP,
  mapFp2ToG2: FP2,
  pairing: P1 + P2,
  p1Decompress: FP,
  p2Decompress: FP2,
} as const;

/** Input a BLS12-381 host function rejects (nearcore's BLS12381InvalidInput message). */
export class Bls12381Error extends ShardkitError<"BLS12381_INVALID_INPUT"> {
  override readonly name = "Bls12381Error";
  constructor(message: string) {
    super("BLS12381_INVALID_INPUT", message);
  }
}

/** nearcore's check_input_size (its function names are those of bls12381.rs, e.g. bls12381_p1_multiexp). */
function items(data: Uint8Array, size: number, fnName: string): Uint8Array[] {
  if (data.length % size !== 0) throw new Bls12381Error(`Incorrect input length for ${fnName}: ${data.length} is not divisible by ${size}`);
  const out: Uint8Array[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

const be = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
const beBytes = (v: bigint): Uint8Array => Uint8Array.from(Buffer.from(v.toString(16).padStart(2 * FP, "0"), "hex"));
const allZero = (bytes: Uint8Array): boolean => bytes.every((b) => b === 0);

/** A canonical field element (< p), or undefined. */
function fp(bytes: Uint8Array): bigint | undefined {
  const v = be(bytes);
  return v < Fp.ORDER ? v : undefined;
}

/** c1 ‖ c0, both canonical. */
function fp2(bytes: Uint8Array): Fp2 | undefined {
  const c1 = fp(bytes.subarray(0, FP));
  const c0 = fp(bytes.subarray(FP, FP2));
  return c1 === undefined || c0 === undefined ? undefined : Fp2.fromBigTuple([c0, c1]);
}

/** The first byte's flags cleared (blst reads the coordinate below them). */
function unflagged(bytes: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[0]! &= 0x1f;
  return copy;
}

/**
 * blst's uncompressed deserialization (`blst_p{1,2}_deserialize`) as nearcore's parse_p
 * accepts it: no compression flag; the infinity flag only as 0x40 followed by zeros; otherwise
 * canonical coordinates on the curve and x ≠ 0 ((0, ±2) is reported as not in the group).
 * The subgroup is not checked.
 */
function deserializeG1(bytes: Uint8Array): G1Point | undefined {
  const flags = byteAt(bytes, 0) & 0xe0;
  if (flags !== 0) return flags === 0x40 && allZero(bytes.subarray(1)) ? G1.ZERO : undefined;
  const x = fp(bytes.subarray(0, FP));
  const y = fp(bytes.subarray(FP, P1));
  if (x === undefined || y === undefined || x === 0n) return undefined;
  if (Fp.sqr(y) !== Fp.add(Fp.mul(Fp.sqr(x), x), B1)) return undefined;
  return G1.fromAffine({ x, y });
}

function deserializeG2(bytes: Uint8Array): G2Point | undefined {
  const flags = byteAt(bytes, 0) & 0xe0;
  if (flags !== 0) return flags === 0x40 && allZero(bytes.subarray(1)) ? G2.ZERO : undefined;
  const x = fp2(bytes.subarray(0, FP2));
  const y = fp2(bytes.subarray(FP2, P2));
  if (x === undefined || y === undefined || Fp2.is0(x)) return undefined;
  if (!Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2))) return undefined;
  return G2.fromAffine({ x, y });
}

function serializeG1(p: G1Point): Uint8Array {
  const out = new Uint8Array(P1);
  if (p.equals(G1.ZERO)) {
    out[0] = 0x40;
    return out;
  }
  const { x, y } = p.toAffine();
  out.set(beBytes(x), 0);
  out.set(beBytes(y), FP);
  return out;
}

function serializeG2(p: G2Point): Uint8Array {
  const out = new Uint8Array(P2);
  if (p.equals(G2.ZERO)) {
    out[0] = 0x40;
    return out;
  }
  const { x, y } = p.toAffine();
  out.set(beBytes(x.c1), 0);
  out.set(beBytes(x.c0), FP);
  out.set(beBytes(y.c1), 2 * FP);
  out.set(beBytes(y.c0), 3 * FP);
  return out;
}

/** blst's sign of y: lexicographically largest (Fp2: c1, or c0 when c1 is zero). */
const signG1 = (y: bigint): boolean => y > HALF_P;
const signG2 = (y: Fp2): boolean => (y.c1 !== 0n ? y.c1 > HALF_P : y.c0 > HALF_P);

/**
 * blst's compressed deserialization behind min_pk `PublicKey::uncompress` (G1) and
 * `Signature::uncompress` (G2): the compression flag set; infinity only as 0xc0 followed by
 * zeros; x canonical with x³ + b a square; y of the flagged sign; x ≠ 0. No subgroup check.
 */
function decompressG1(bytes: Uint8Array): G1Point | undefined {
  const flags = byteAt(bytes, 0) & 0xe0;
  if ((flags & 0x80) === 0) return undefined;
  if (flags & 0x40) return (byteAt(bytes, 0) & 0x3f) === 0 && allZero(bytes.subarray(1)) ? G1.ZERO : undefined;
  const x = fp(unflagged(bytes));
  if (x === undefined) return undefined;
  let y: bigint;
  try {
    y = Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), B1));
  } catch {
    return undefined;
  }
  if (signG1(y) !== ((flags & 0x20) !== 0)) y = Fp.neg(y);
  return x === 0n ? undefined : G1.fromAffine({ x, y });
}

function decompressG2(bytes: Uint8Array): G2Point | undefined {
  const flags = byteAt(bytes, 0) & 0xe0;
  if ((flags & 0x80) === 0) return undefined;
  if (flags & 0x40) return (byteAt(bytes, 0) & 0x3f) === 0 && allZero(bytes.subarray(1)) ? G2.ZERO : undefined;
  const x = fp2(unflagged(bytes));
  if (x === undefined) return undefined;
  let y: Fp2;
  try {
    y = Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2));
  } catch {
    return undefined;
  }
  if (signG2(y) !== ((flags & 0x20) !== 0)) y = Fp2.neg(y);
  return Fp2.is0(x) ? undefined : G2.fromAffine({ x, y });
}

/** A 32-byte little-endian scalar, reduced mod r (the points it multiplies are in the subgroup). */
function scalar(bytes: Uint8Array): bigint {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(byteAt(bytes, i));
  return v % R;
}

/** What sum and multiexp need of a G1 or G2 point. */
interface GroupPoint<P> {
  add(other: P): P;
  subtract(other: P): P;
  multiplyUnsafe(scalar: bigint): P;
  isTorsionFree(): boolean;
}

/** Σ ±p_i over (sign, point) items; sign 0 adds, 1 subtracts, anything else is invalid. */
function sum<T extends GroupPoint<T>>(elements: Uint8Array[], parse: (b: Uint8Array) => T | undefined, zero: T): T | undefined {
  let acc = zero;
  for (const item of elements) {
    const p = parse(item.subarray(1));
    if (p === undefined) return undefined;
    const sign = item[0];
    if (sign !== 0 && sign !== 1) return undefined;
    acc = sign === 1 ? acc.subtract(p) : acc.add(p);
  }
  return acc;
}

/** Σ s_i·p_i over (point, scalar) items; every point must be in the subgroup. */
function multiexp<T extends GroupPoint<T>>(elements: Uint8Array[], size: number, parse: (b: Uint8Array) => T | undefined, zero: T): T | undefined {
  let acc = zero;
  for (const item of elements) {
    const p = parse(item.subarray(0, size));
    if (p === undefined || !p.isTorsionFree()) return undefined;
    acc = acc.add(p.multiplyUnsafe(scalar(item.subarray(size))));
  }
  return acc;
}

export function p1Sum(data: Uint8Array): Uint8Array | undefined {
  loadCurve();
  const p = sum(items(data, BLS_ITEM.p1Sum, "bls12381_p1_sum"), deserializeG1, G1.ZERO);
  return p && serializeG1(p);
}

export function p2Sum(data: Uint8Array): Uint8Array | undefined {
  loadCurve();
  const p = sum(items(data, BLS_ITEM.p2Sum, "bls12381_p2_sum"), deserializeG2, G2.ZERO);
  return p && serializeG2(p);
}

export function g1Multiexp(data: Uint8Array): Uint8Array | undefined {
  loadCurve();
  const p = multiexp(items(data, BLS_ITEM.g1Multiexp, "bls12381_p1_multiexp"), P1, deserializeG1, G1.ZERO);
  return p && serializeG1(p);
}

export function g2Multiexp(data: Uint8Array): Uint8Array | undefined {
  loadCurve();
  const p = multiexp(items(data, BLS_ITEM.g2Multiexp, "bls12381_p2_multiexp"), P2, deserializeG2, G2.ZERO);
  return p && serializeG2(p);
}

/** Concatenated outputs of `each` over the items, or undefined if any item is invalid. */
function concatEach(elements: Uint8Array[], outSize: number, each: (item: Uint8Array) => Uint8Array | undefined): Uint8Array | undefined {
  const out = new Uint8Array(elements.length * outSize);
  for (let i = 0; i < elements.length; i++) {
    const one = each(at(elements, i));
    if (one === undefined) return undefined;
    out.set(one, i * outSize);
  }
  return out;
}

export function p1Decompress(data: Uint8Array): Uint8Array | undefined {
  loadCurve();
  return concatEach(items(data, BLS_ITEM.p1Decompress, "bls12381_p1_decompress"), P1, (item) => {
    const p = decompressG1(item);
    return p && serializeG1(p);
  });
}

export function p2Decompress(data: Uint8Array): Uint8Array | undefined {
  loadCurve();
  return concatEach(items(data, BLS_ITEM.p2Decompress, "bls12381_p2_decompress"), P2, (item) => {
    const p = decompressG2(item);
    return p && serializeG2(p);
  });
}

/** blst_map_to_g1: simplified SWU, the 11-isogeny, then clearing the cofactor (EIP-2537 MAP_FP_TO_G1). */
export function mapFpToG1(data: Uint8Array): Uint8Array | undefined {
  const curve = loadCurve();
  return concatEach(items(data, BLS_ITEM.mapFpToG1, "bls12381_map_fp_to_g1"), P1, (item) => {
    const u = fp(item);
    return u === undefined ? undefined : serializeG1(G1.fromAffine(curve.G1.mapToCurve([u]).toAffine()));
  });
}

export function mapFp2ToG2(data: Uint8Array): Uint8Array | undefined {
  const curve = loadCurve();
  return concatEach(items(data, BLS_ITEM.mapFp2ToG2, "bls12381_map_fp2_to_g2"), P2, (item) => {
    const u = fp2(item);
    return u === undefined ? undefined : serializeG2(G2.fromAffine(curve.G2.mapToCurve([u.c0, u.c1]).toAffine()));
  });
}

/**
 * 0 if Π e(p_i, q_i) is one, 2 if not, 1 if an item is invalid (points must deserialize and be
 * in their subgroups). A pair with a point at infinity contributes one.
 */
export function pairingCheck(data: Uint8Array): 0n | 1n | 2n {
  const curve = loadCurve();
  const pairs: { g1: G1Point; g2: G2Point }[] = [];
  for (const item of items(data, BLS_ITEM.pairing, "bls12381_pairing_check")) {
    const g1 = deserializeG1(item.subarray(0, P1));
    if (g1 === undefined || !g1.isTorsionFree()) return 1n;
    const g2 = deserializeG2(item.subarray(P1));
    if (g2 === undefined || !g2.isTorsionFree()) return 1n;
    if (!g1.equals(G1.ZERO) && !g2.equals(G2.ZERO)) pairs.push({ g1, g2 });
  }
  if (pairs.length === 0) return 0n;
  return Fp12.eql(curve.pairingBatch(pairs), Fp12.ONE) ? 0n : 2n;
}
