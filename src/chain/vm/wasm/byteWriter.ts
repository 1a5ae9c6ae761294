const utf8 = new TextEncoder();

/** Growable buffer producing wasm binary encodings (LEB128 integers, names, sections). */
export class ByteWriter {
  private buffer: Uint8Array;
  private length = 0;

  constructor(initialCapacity = 256) {
    this.buffer = new Uint8Array(Math.max(16, initialCapacity));
  }

  get size(): number {
    return this.length;
  }

  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  u8(byte: number): this {
    this.reserve(1);
    this.buffer[this.length++] = byte & 0xff;
    return this;
  }

  bytes(data: Uint8Array): this {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
    return this;
  }

  varU32(value: number): this {
    let v = value >>> 0;
    this.reserve(5);
    do {
      let byte = v & 0x7f;
      v >>>= 7;
      if (v !== 0) byte |= 0x80;
      this.buffer[this.length++] = byte;
    } while (v !== 0);
    return this;
  }

  varS32(value: number): this {
    return this.varS64(BigInt(value | 0));
  }

  /** Signed LEB128 of any bigint in the i64 (or s33) range, shortest form. */
  varS64(value: bigint): this {
    let v = value;
    this.reserve(10);
    for (;;) {
      const byte = Number(v & 0x7fn);
      v >>= 7n;
      const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
      this.buffer[this.length++] = done ? byte : byte | 0x80;
      if (done) return this;
    }
  }

  name(text: string): this {
    const encoded = utf8.encode(text);
    return this.varU32(encoded.length).bytes(encoded);
  }

  /** Appends a vector: its length then each element written by `item`. */
  vec<T>(items: readonly T[], item: (writer: this, value: T) => void): this {
    this.varU32(items.length);
    for (const value of items) item(this, value);
    return this;
  }

  /** Appends a section: id, byte length, then the contents. */
  section(id: number, contents: Uint8Array): this {
    return this.u8(id).varU32(contents.length).bytes(contents);
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
