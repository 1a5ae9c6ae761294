/**
 * Strict standard base64 (RFC 4648 §4, with padding), as nearcore's decoder accepts it:
 * only the standard alphabet, length a multiple of 4, '=' only as final padding, and
 * unused trailing bits zero so every byte string has exactly one accepted encoding.
 */

import { ShardkitError } from "@shardkit/primitives/ShardkitError";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUE_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE_OF[ALPHABET.charCodeAt(i)] = i;
/** The 6-bit value of a character code, -1 for one outside the alphabet. */
const valueOf = (code: number): number => VALUE_OF[code] ?? -1;

/** Thrown by {@link base64Decode} for text that is not canonical padded base64. */
export class Base64Error extends ShardkitError<"INVALID_BASE64"> {
  override readonly name = "Base64Error";
  constructor(message: string) {
    super("INVALID_BASE64", message);
  }
}

/** Throws {@link Base64Error} unless `text` is canonical padded base64. */
function check(text: string): void {
  const len = text.length;
  if (len % 4 !== 0) throw new Base64Error(`base64 length ${len} is not a multiple of 4`);
  let pad = 0;
  if (len > 0 && text.charCodeAt(len - 1) === 61 /* = */) pad = text.charCodeAt(len - 2) === 61 ? 2 : 1;
  const dataChars = len - pad;
  // A table-driven loop: several times faster than a regex on short strings.
  for (let i = 0; i < dataChars; i++) {
    const code = text.charCodeAt(i);
    if (valueOf(code) < 0) {
      throw new Base64Error(`invalid base64 character ${JSON.stringify(text[i])} at position ${i}`);
    }
  }
  if (pad > 0) {
    // The last data character must not carry bits that the padding says are absent.
    const last = valueOf(text.charCodeAt(dataChars - 1));
    if ((last & (pad === 2 ? 0x0f : 0x03)) !== 0) {
      throw new Base64Error("base64 has non-zero bits after the last byte (non-canonical)");
    }
  }
}

/** Decodes canonical padded base64, throwing {@link Base64Error} on anything else. */
export function base64Decode(text: string): Uint8Array {
  check(text);
  // Node's decoder is fast and, on input validated above, exact. Copy out of the pool so
  // callers own an unshared ArrayBuffer.
  return new Uint8Array(Buffer.from(text, "base64"));
}

/**
 * Decodes canonical padded base64 straight to a latin1 byte string (the state trie's form),
 * skipping the intermediate Uint8Array; used on genesis hot paths.
 */
export function base64DecodeToLatin1(text: string): string {
  check(text);
  return Buffer.from(text, "base64").toString("latin1");
}

/** Encodes bytes as standard padded base64. */
export function base64Encode(bytes: Uint8Array): string {
  if (Buffer.isBuffer(bytes)) return bytes.toString("base64");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
}
