/**
 * Minimal borsh encoder (little-endian integers, u32-length-prefixed strings and vectors),
 * enough for accounts, access keys, public keys and header hashing. Grows its buffer by
 * doubling so encoding many small values does not reallocate per field.
 */
const UTF8 = new TextEncoder();

export class BorshWriter {
  private buf = new Uint8Array(64);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.reserve(1);
    this.buf[this.len++] = v & 0xff;
    return this;
  }

  u16(v: number): this {
    this.reserve(2);
    this.view.setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }

  u32(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`u32 out of range: ${v}`);
    this.reserve(4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
    return this;
  }

  u64(v: bigint | number): this {
    const b = BigInt(v);
    if (b < 0n || b > 0xffffffffffffffffn) throw new RangeError(`u64 out of range: ${b}`);
    this.reserve(8);
    this.view.setBigUint64(this.len, b, true);
    this.len += 8;
    return this;
  }

  u128(v: bigint): this {
    if (v < 0n || v >> 128n !== 0n) throw new RangeError(`u128 out of range: ${v}`);
    this.reserve(16);
    this.view.setBigUint64(this.len, v & 0xffffffffffffffffn, true);
    this.view.setBigUint64(this.len + 8, v >> 64n, true);
    this.len += 16;
    return this;
  }

  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }

  /** Raw bytes with no length prefix (fixed-size arrays such as hashes). */
  fixed(bytes: Uint8Array): this {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }

  /** Vec<u8>: u32 length ‖ bytes. */
  bytes(bytes: Uint8Array): this {
    this.u32(bytes.length);
    return this.fixed(bytes);
  }

  /** String: u32 byte length ‖ UTF-8 (encoded in place: records hold thousands of strings). */
  string(s: string): this {
    const max = s.length * 3;
    this.reserve(4 + max);
    const { written } = UTF8.encodeInto(s, this.buf.subarray(this.len + 4, this.len + 4 + max));
    this.view.setUint32(this.len, written, true);
    this.len += 4 + written;
    return this;
  }

  /** The encoded bytes (a copy, safe to keep). */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
