import { ShardkitError } from "./ShardkitError.js";

/** Thrown when borsh bytes are truncated, have trailing data or an invalid value. */
export class BorshError extends ShardkitError<"INVALID_BORSH"> {
  override readonly name = "BorshError";
  constructor(message: string) {
    super("INVALID_BORSH", message);
  }
}

/** Minimal strict borsh decoder mirroring {@link BorshWriter}. */
export class BorshReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  private need(n: number): void {
    if (this.offset + n > this.bytes.length) {
      throw new BorshError(`unexpected end of borsh data at byte ${this.offset} (need ${n} more)`);
    }
  }

  get position(): number {
    return this.offset;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.offset++]!;
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }

  u128(): bigint {
    this.need(16);
    const lo = this.view.getBigUint64(this.offset, true);
    const hi = this.view.getBigUint64(this.offset + 8, true);
    this.offset += 16;
    return (hi << 64n) | lo;
  }

  bool(): boolean {
    const v = this.u8();
    if (v > 1) throw new BorshError(`invalid bool byte ${v}`);
    return v === 1;
  }

  fixed(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.slice(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  bytesVec(): Uint8Array {
    return this.fixed(this.u32());
  }

  string(): string {
    return new TextDecoder("utf-8", { fatal: true }).decode(this.bytesVec());
  }

  /** Throws unless every byte was consumed. */
  end(): void {
    if (this.offset !== this.bytes.length) {
      throw new BorshError(`${this.bytes.length - this.offset} trailing bytes after borsh value`);
    }
  }
}
