// Standard base64 (RFC 4648, padded), for binary keys and values in JSON.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function base64Encode(b: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (<u32>b[i] << 16) | (<u32>b[i + 1] << 8) | <u32>b[i + 2];
    out += ALPHABET.charAt(n >> 18) + ALPHABET.charAt((n >> 12) & 63) + ALPHABET.charAt((n >> 6) & 63) + ALPHABET.charAt(n & 63);
  }
  const rest = b.length - i;
  if (rest == 1) {
    const n = <u32>b[i] << 16;
    out += ALPHABET.charAt(n >> 18) + ALPHABET.charAt((n >> 12) & 63) + "==";
  } else if (rest == 2) {
    const n = (<u32>b[i] << 16) | (<u32>b[i + 1] << 8);
    out += ALPHABET.charAt(n >> 18) + ALPHABET.charAt((n >> 12) & 63) + ALPHABET.charAt((n >> 6) & 63) + "=";
  }
  return out;
}

function sextet(c: i32): i32 {
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 71;
  if (c >= 48 && c <= 57) return c + 4;
  if (c == 43) return 62;
  if (c == 47) return 63;
  return -1;
}

/** Decodes padded base64; null when s is not valid base64. */
export function base64Decode(s: string): Uint8Array | null {
  if (s.length % 4 != 0) return null;
  let pad = 0;
  if (s.length > 0 && s.charCodeAt(s.length - 1) == 61) pad++;
  if (s.length > 1 && s.charCodeAt(s.length - 2) == 61) pad++;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n: u32 = 0;
    for (let j = 0; j < 4; j++) {
      const c = s.charCodeAt(i + j);
      let v = 0;
      if (c == 61 && i + 4 == s.length && j >= 4 - pad) v = 0;
      else {
        v = sextet(c);
        if (v < 0) return null;
      }
      n = (n << 6) | <u32>v;
    }
    if (o < out.length) out[o++] = <u8>(n >> 16);
    if (o < out.length) out[o++] = <u8>(n >> 8);
    if (o < out.length) out[o++] = <u8>n;
  }
  return out;
}
