// Minimal Borsh writer/reader (little-endian integers, u32-length-prefixed strings) for
// contract state records.
import { panicStr } from "./panic";
import { U128 } from "./u128";
import { utf8 } from "./near";

export class BorshWriter {
  private parts: Uint8Array[] = [];
  private size: i32 = 0;

  private push(b: Uint8Array): BorshWriter {
    this.parts.push(b);
    this.size += b.length;
    return this;
  }

  u8(v: u8): BorshWriter { const b = new Uint8Array(1); b[0] = v; return this.push(b); }
  u32(v: u32): BorshWriter { const b = new Uint8Array(4); store<u32>(b.dataStart, v); return this.push(b); }
  u64(v: u64): BorshWriter { const b = new Uint8Array(8); store<u64>(b.dataStart, v); return this.push(b); }
  u128(v: U128): BorshWriter { return this.push(v.toBytes()); }
  string(s: string): BorshWriter { const b = utf8(s); this.u32(<u32>b.length); return this.push(b); }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let p = 0;
    for (let i = 0; i < this.parts.length; i++) {
      out.set(this.parts[i], p);
      p += this.parts[i].length;
    }
    return out;
  }
}

export class BorshReader {
  private pos: i32 = 0;
  constructor(private b: Uint8Array) {}

  private take(n: i32): usize {
    if (this.pos + n > this.b.length) panicStr("Cannot deserialize the contract state.");
    const p = this.b.dataStart + <usize>this.pos;
    this.pos += n;
    return p;
  }

  u8(): u8 { return load<u8>(this.take(1)); }
  u32(): u32 { return load<u32>(this.take(4)); }
  u64(): u64 { return load<u64>(this.take(8)); }
  u128(): U128 { return U128.load(this.take(16)); }
  string(): string {
    const len = <i32>this.u32();
    return String.UTF8.decodeUnsafe(this.take(len), <usize>len);
  }
}
