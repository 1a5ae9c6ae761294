import { ShardkitError } from "./ShardkitError.js";

/**
 * Base58 (Bitcoin alphabet), the text form NEAR uses for hashes, keys and signatures.
 * Own implementation: leading zero bytes map to leading '1's, the rest is a big-number
 * conversion done limb-wise so no bigint allocation happens per byte.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

// -1 marks characters outside the alphabet (0, O, I, l and everything non-alphanumeric).
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT_OF[ALPHABET.charCodeAt(i)] = i;

/** The alphabet's character codes, by digit. */
const DIGIT_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

/** Where an encoding's digits are written (grown when an input needs more; 64 fits every hash and key). */
let SCRATCH = new Uint8Array(64);

/** Thrown by {@link base58Decode} for text that is not valid base58. */
export class Base58Error extends ShardkitError<"INVALID_BASE58"> {
  override readonly name = "Base58Error";
  constructor(message: string) {
    super("INVALID_BASE58", message);
  }
}

/** 58^5: base58 digits are computed five at a time in limbs of this base. */
const LIMB = 656_356_768;

/** The number being converted, in base-58^5 limbs, least significant first (grown for long inputs). */
let LIMBS = new Float64Array(16);

/**
 * Encodes bytes as base58 (an empty input gives ""). Hashes and keys are encoded on every
 * transaction, so the conversion works in limbs of five base58 digits and consumes the input
 * two bytes at a time (limb × 2^16 + carry stays below 2^53), about ten times fewer steps
 * than digit by digit, in one reused array of doubles and without a closure per call.
 */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Each limb holds log2(58^5) ≈ 29.3 bits: a limb per 3 bytes is enough.
  const capacity = Math.ceil((bytes.length - zeros) / 3) + 1;
  if (LIMBS.length < capacity) LIMBS = new Float64Array(capacity);
  const limbs = LIMBS;
  let count = 0;
  // An odd number of bytes starts with one, then they go two at a time.
  let take = (bytes.length - zeros) % 2 === 1 ? 1 : 2;
  for (let i = zeros; i < bytes.length; i += take, take = 2) {
    const scale = take === 1 ? 256 : 65536;
    let carry = take === 1 ? bytes[i]! : bytes[i]! * 256 + bytes[i + 1]!;
    for (let j = 0; j < count; j++) {
      const x = limbs[j]! * scale + carry;
      carry = Math.floor(x / LIMB);
      limbs[j] = x - carry * LIMB;
    }
    while (carry > 0) {
      const next = Math.floor(carry / LIMB);
      limbs[count++] = carry - next * LIMB;
      carry = next;
    }
  }

  // Digits are written from the end of a scratch buffer and read back as one flat string:
  // prepending to a string makes a rope of ~30 cons cells per id, which a kept id (a Map key,
  // an outcome's id) would hold for as long as it lives (~1 KB instead of ~60 bytes).
  const most = zeros + 5 * count;
  if (SCRATCH.length < most) SCRATCH = new Uint8Array(most);
  let at = SCRATCH.length;
  for (let j = 0; j < count; j++) {
    let limb = limbs[j]!;
    const last = j === count - 1;
    for (let k = 0; k < 5 && (!last || limb > 0); k++) {
      const next = Math.floor(limb / 58);
      SCRATCH[--at] = DIGIT_CODES[limb - next * 58]!;
      limb = next;
    }
  }
  for (let z = 0; z < zeros; z++) SCRATCH[--at] = 49; // '1'
  return latin1Text(SCRATCH.subarray(at));
}

/** ASCII/latin1 bytes as a flat string, in slices that stay below the engine's argument limit. */
function latin1Text(codes: Uint8Array): string {
  const SLICE = 8192;
  if (codes.length <= SLICE) return String.fromCharCode.apply(null, codes as unknown as number[]);
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i += SLICE) parts.push(String.fromCharCode.apply(null, codes.subarray(i, i + SLICE) as unknown as number[]));
  return parts.join("");
}

/**
 * Decodes base58 text. Rejects any character outside the alphabet (including whitespace)
 * with a {@link Base58Error} naming its position.
 */
export function base58Decode(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  // Bytes in base 256, least significant first; log(58)/log(256) < 0.74.
  const bytes = new Uint8Array(Math.ceil((text.length - zeros) * 0.74) + 1);
  let used = 0;
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? DIGIT_OF[code]! : -1;
    if (digit < 0) {
      throw new Base58Error(`invalid base58 character ${JSON.stringify(text[i])} at position ${i}`);
    }
    let carry = digit;
    for (let j = 0; j < used; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes[used++] = carry & 0xff;
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + used);
  for (let j = 0; j < used; j++) out[zeros + j] = bytes[used - 1 - j]!;
  return out;
}
