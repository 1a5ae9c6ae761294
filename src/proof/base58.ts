/**
 * Base58 (Bitcoin alphabet) for the proof verifiers, kept here so `shardkit/proof` needs no
 * chain code. Small inputs only (hashes, keys, signatures): quadratic, allocation-light.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGIT_OF = new Map([...ALPHABET].map((c, i) => [c, i]));

export function base58Decode(text: string): Uint8Array {
  const bytes: number[] = []; // little-endian base-256 digits
  for (const ch of text) {
    let carry = DIGIT_OF.get(ch);
    if (carry === undefined) throw new RangeError(`invalid base58 character ${JSON.stringify(ch)}`);
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i]!;
  return out;
}

export function base58Encode(bytes: Uint8Array): string {
  const digits: number[] = []; // little-endian base-58 digits
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! * 256;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = "";
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out += "1";
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]!];
  return out;
}
