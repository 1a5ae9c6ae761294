/**
 * Byte strings as JS "latin1" strings: one char per byte (0..255). V8 stores them in one
 * byte per char, `<` on them is raw byte order, and they can key a Map. The state trie keeps
 * keys and values in this form because it is several times lighter than a Uint8Array each.
 */

/** Converts bytes to a latin1 string (a flat, one-byte V8 string). */
export function bytesToLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
}

/** Converts a latin1 string back to a fresh, unshared Uint8Array. */
export function latin1ToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  if (text.length > 0) Buffer.from(out.buffer).write(text, 0, "latin1");
  return out;
}
