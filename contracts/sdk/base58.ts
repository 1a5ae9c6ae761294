// Base58 (Bitcoin alphabet) decoding, for "ed25519:<base58>" public keys.
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Decodes base58; null on a character outside the alphabet. */
export function base58Decode(s: string): Uint8Array | null {
  const bytes: u8[] = []; // little-endian big number
  for (let i = 0; i < s.length; i++) {
    let carry = ALPHABET.indexOf(s.charAt(i));
    if (carry < 0) return null;
    for (let j = 0; j < bytes.length; j++) {
      carry += <i32>bytes[j] * 58;
      bytes[j] = <u8>(carry & 0xff);
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(<u8>(carry & 0xff));
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (zeros < s.length && s.charCodeAt(zeros) == 49) zeros++;
  const out = new Uint8Array(zeros + bytes.length);
  for (let j = 0; j < bytes.length; j++) out[zeros + j] = bytes[bytes.length - 1 - j];
  return out;
}
