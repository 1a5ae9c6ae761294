/**
 * Hand-assembly of borsh bytes for test vectors, written independently of BorshWriter so the
 * vectors check the codec against the format rather than against itself.
 */
export type Part = Uint8Array | string | number[];

/** Concatenates parts; a string part is hex (spaces allowed). */
export function cat(...parts: Part[]): Uint8Array {
  const chunks = parts.map((p) =>
    typeof p === "string" ? new Uint8Array(Buffer.from(p.replace(/\s+/g, ""), "hex")) : Uint8Array.from(p),
  );
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function le(value: bigint, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let v = value;
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export const u16 = (v: number) => le(BigInt(v), 2);
export const u32 = (v: number) => le(BigInt(v), 4);
export const u64 = (v: bigint | number) => le(BigInt(v), 8);
export const u128 = (v: bigint | number) => le(BigInt(v), 16);
/** u32 length ‖ UTF-8. */
export const str = (s: string) => {
  const b = new TextEncoder().encode(s);
  return cat(u32(b.length), b);
};
/** u32 length ‖ bytes. */
export const vec = (b: Uint8Array) => cat(u32(b.length), b);
export const fill = (n: number, byte: number) => new Uint8Array(n).fill(byte);
export const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
