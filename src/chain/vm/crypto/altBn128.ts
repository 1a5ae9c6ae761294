import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { loadedOnFirstUse } from "./loadedOnFirstUse.js";
import { byteAt } from "../../must.js";

/*
 * alt_bn128 (BN254) operations with nearcore's codecs (near-vm-runner logic/alt_bn128.rs):
 * every field element and scalar is a 32-byte little-endian u256; G1 = x ‖ y, G2 = x ‖ y with
 * Fq2 elements as (re, im); (0, 0) is the point at infinity. Invalid input throws
 * AltBn128Error with nearcore's message (the host turns it into AltBn128InvalidInput). The
 * curve is loaded by the first operation (`loadCurve`), not when the VM is imported.
 */

type Bn254 = (typeof import("@noble/curves/bn254"))["bn254"];
type G1Point = InstanceType<Bn254["G1"]["ProjectivePoint"]>;
type G2Point = InstanceType<Bn254["G2"]["ProjectivePoint"]>;
const noble = loadedOnFirstUse<typeof import("@noble/curves/bn254")>("@noble/curves/bn254");
let bn254: Bn254 | undefined;
let Fp: Bn254["fields"]["Fp"];
let Fp2: Bn254["fields"]["Fp2"];
let Fp12: Bn254["fields"]["Fp12"];
let G1: Bn254["G1"]["ProjectivePoint"];
let G2: Bn254["G2"]["ProjectivePoint"];
let R: bigint;

/** Every exported operation on points calls this first: the curve and its constants. */
function loadCurve(): Bn254 {
  if (bn254 !== undefined) return bn254;
  const curve = noble().bn254;
  ({ Fp, Fp2, Fp12 } = curve.fields);
  G1 = curve.G1.ProjectivePoint;
  G2 = curve.G2.ProjectivePoint;
  R = curve.params.r;
  return (bn254 = curve);
}

const SCALAR = 32;
const POINT = 64;
/** Element sizes of the three functions' inputs. */
export const G1_MULTIEXP_ELEMENT = POINT + SCALAR;
export const G1_SUM_ELEMENT = 1 + POINT;
export const PAIRING_CHECK_ELEMENT = POINT + 2 * POINT;

/** Input an alt_bn128 host function rejects (nearcore's AltBn128InvalidInput message). */
export class AltBn128Error extends ShardkitError<"ALT_BN128_INVALID_INPUT"> {
  override readonly name = "AltBn128Error";
  constructor(message: string) {
    super("ALT_BN128_INVALID_INPUT", message);
  }
}

/** Rust `{:X?}` of a byte array: `[0, 1F, A0]`. */
function debugHex(bytes: Uint8Array): string {
  return `[${Array.from(bytes, (b) => b.toString(16).toUpperCase()).join(", ")}]`;
}

const invalid = (what: string, raw: Uint8Array): AltBn128Error => new AltBn128Error(`${what}: ${debugHex(raw)}`);

function u256LE(raw: Uint8Array): bigint {
  let v = 0n;
  for (let i = raw.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(byteAt(raw, i));
  return v;
}

function u256LEBytes(v: bigint): Uint8Array {
  const out = new Uint8Array(SCALAR);
  for (let i = 0; i < SCALAR; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The input as whole elements, or nearcore's stdx::as_chunks_exact error. */
export function splitElements(data: Uint8Array, size: number): Uint8Array[] {
  if (data.length % size !== 0) {
    throw new AltBn128Error(`slice of size ${data.length} cannot be precisely split into chunks of size ${size}`);
  }
  const out: Uint8Array[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

function decodeFq(raw: Uint8Array): bigint {
  const v = u256LE(raw);
  if (v >= Fp.ORDER) throw invalid("invalid fq", raw);
  return v;
}

function decodeFr(raw: Uint8Array): bigint {
  const v = u256LE(raw);
  if (v >= R) throw invalid("invalid fr", raw);
  return v;
}

function decodeG1(raw: Uint8Array): G1Point {
  const x = decodeFq(raw.subarray(0, SCALAR));
  const y = decodeFq(raw.subarray(SCALAR, POINT));
  if (x === 0n && y === 0n) return G1.ZERO;
  // G1 has cofactor 1: on the curve is enough (bn's AffineG1::new).
  if (Fp.sqr(y) !== Fp.add(Fp.mul(Fp.sqr(x), x), 3n)) throw invalid("invalid g1", raw);
  return G1.fromAffine({ x, y });
}

function decodeFq2(raw: Uint8Array) {
  const re = decodeFq(raw.subarray(0, SCALAR));
  const im = decodeFq(raw.subarray(SCALAR, POINT));
  return Fp2.fromBigTuple([re, im]);
}

function decodeG2(raw: Uint8Array): G2Point {
  const x = decodeFq2(raw.subarray(0, POINT));
  const y = decodeFq2(raw.subarray(POINT, 2 * POINT));
  if (Fp2.is0(x) && Fp2.is0(y)) return G2.ZERO;
  // bn's AffineG2::new: on the twist and in the r-torsion subgroup.
  const p = G2.fromAffine({ x, y });
  try {
    p.assertValidity();
  } catch {
    throw invalid("invalid g2", raw);
  }
  return p;
}

function decodeBool(raw: Uint8Array): boolean {
  if (raw[0] === 0) return false;
  if (raw[0] === 1) return true;
  throw invalid("invalid bool", raw);
}

function encodeG1(p: G1Point): Uint8Array {
  const out = new Uint8Array(POINT);
  if (p.equals(G1.ZERO)) return out;
  const { x, y } = p.toAffine();
  out.set(u256LEBytes(x), 0);
  out.set(u256LEBytes(y), SCALAR);
  return out;
}

/** Σ fr_i·g1_i over (g1, fr) elements of G1_MULTIEXP_ELEMENT bytes; all decoded before any arithmetic. */
export function g1Multiexp(elements: readonly Uint8Array[]): Uint8Array {
  loadCurve();
  const pairs = elements.map((e) => [decodeG1(e.subarray(0, POINT)), decodeFr(e.subarray(POINT))] as const);
  let acc = G1.ZERO;
  for (const [p, k] of pairs) acc = acc.add(p.multiplyUnsafe(k));
  return encodeG1(acc);
}

/** Σ ±g1_i over (sign, g1) elements: sign byte 0 adds, 1 subtracts. */
export function g1Sum(elements: readonly Uint8Array[]): Uint8Array {
  loadCurve();
  const items = elements.map((e) => [decodeBool(e.subarray(0, 1)), decodeG1(e.subarray(1))] as const);
  let acc = G1.ZERO;
  for (const [negative, p] of items) acc = negative ? acc.subtract(p) : acc.add(p);
  return encodeG1(acc);
}

/** Whether Π e(g1_i, g2_i) is one (pairs with a point at infinity contribute one). */
export function pairingCheck(elements: readonly Uint8Array[]): boolean {
  const curve = loadCurve();
  const pairs = elements.map((e) => ({ g1: decodeG1(e.subarray(0, POINT)), g2: decodeG2(e.subarray(POINT)) }));
  const live = pairs.filter(({ g1, g2 }) => !g1.equals(G1.ZERO) && !g2.equals(G2.ZERO));
  if (live.length === 0) return true;
  return Fp12.eql(curve.pairingBatch(live), Fp12.ONE);
}
