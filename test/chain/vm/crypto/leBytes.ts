/** nearcore's le_bytes!: numbers are single bytes, hex strings are u256 written little-endian. */
export function le(...items: (string | number | bigint)[]): Uint8Array {
  const out: number[] = [];
  for (const it of items) {
    if (typeof it === "number") {
      out.push(it);
      continue;
    }
    let v = BigInt(it);
    for (let i = 0; i < 32; i++) {
      out.push(Number(v & 0xffn));
      v >>= 8n;
    }
  }
  return Uint8Array.from(out);
}
