import { WasmDecodeError } from "./wasmDecodeError.js";
import { byteAt } from "../../must.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Strict cursor over wasm binary bytes: LEB128 integers with the spec's length and
 * unused-bit rules (as wasmparser enforces them), names as valid UTF-8, bounds always checked.
 */
export class ByteReader {
  private pos: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get position(): number {
    return this.pos;
  }

  get eof(): boolean {
    return this.pos >= this.end;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  fail(what: string): never {
    throw new WasmDecodeError(`${what} at byte ${this.pos}`);
  }

  u8(): number {
    if (this.pos >= this.end) this.fail("unexpected end");
    return byteAt(this.bytes, this.pos++);
  }

  peekU8(): number {
    if (this.pos >= this.end) this.fail("unexpected end");
    return byteAt(this.bytes, this.pos);
  }

  take(length: number): Uint8Array {
    if (length < 0 || length > this.end - this.pos) this.fail("length out of bounds");
    const out = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  skip(length: number): void {
    this.take(length);
  }

  /** Unsigned LEB128, at most 5 bytes, value < 2^32. */
  varU32(): number {
    let result = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      if (i === 4) {
        // Only the low 4 bits may be used in the 5th byte.
        if ((byte & 0xf0) !== 0) this.fail("invalid u32 LEB128");
        return (result + byte * 2 ** 28) >>> 0;
      }
      result |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) return result >>> 0;
    }
    return this.fail("invalid u32 LEB128");
  }

  /** Signed LEB128 of `bits` (32 or 33) width as a JS number. */
  private varSigned(bits: 32 | 33): number {
    const maxBytes = Math.ceil(bits / 7);
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < maxBytes; i++) {
      const byte = this.u8();
      result |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
      if ((byte & 0x80) === 0) {
        if (i === maxBytes - 1) checkLastSignedByte(this, byte, bits);
        return Number(BigInt.asIntN(bits, signExtend(result, shift)));
      }
      if (i === maxBytes - 1) this.fail("signed LEB128 too long");
    }
    return this.fail("invalid signed LEB128");
  }

  varS32(): number {
    return this.varSigned(32);
  }

  varS33(): number {
    return this.varSigned(33);
  }

  /** Signed LEB128, at most 10 bytes, as a bigint in [-2^63, 2^63). */
  varS64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      const byte = this.u8();
      result |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
      if ((byte & 0x80) === 0) {
        if (i === 9) checkLastSignedByte(this, byte, 64);
        return BigInt.asIntN(64, signExtend(result, shift));
      }
    }
    return this.fail("signed LEB128 too long");
  }

  name(): string {
    const bytes = this.take(this.varU32());
    try {
      return utf8.decode(bytes);
    } catch {
      return this.fail("name is not valid UTF-8");
    }
  }
}

function signExtend(value: bigint, bitsRead: bigint): bigint {
  return BigInt.asIntN(Number(bitsRead), value);
}

/**
 * In the last allowed byte, the bits beyond the integer's width must all equal its sign bit
 * (the spec's "unused bits" rule).
 */
function checkLastSignedByte(reader: ByteReader, byte: number, bits: number): void {
  const usedBits = bits - 7 * (Math.ceil(bits / 7) - 1); // payload bits in the last byte
  const signAndUnused = byte & 0x7f & ~((1 << (usedBits - 1)) - 1); // sign bit and above
  const all = 0x7f & ~((1 << (usedBits - 1)) - 1);
  if (signAndUnused !== 0 && signAndUnused !== all) reader.fail("invalid signed LEB128 padding");
}
