// Unsigned 128-bit integers as two u64 limbs: NEAR balances (yoctoNEAR) and token amounts.
// Arithmetic is checked: overflow and underflow panic, like Rust's checked ops in near-sdk.
import { panicStr } from "./panic";

export class U128 {
  constructor(public lo: u64 = 0, public hi: u64 = 0) {}

  static zero(): U128 { return new U128(0, 0); }
  static from(v: u64): U128 { return new U128(v, 0); }
  static max(): U128 { return new U128(u64.MAX_VALUE, u64.MAX_VALUE); }

  isZero(): bool { return this.lo == 0 && this.hi == 0; }
  eq(o: U128): bool { return this.lo == o.lo && this.hi == o.hi; }
  lt(o: U128): bool { return this.hi < o.hi || (this.hi == o.hi && this.lo < o.lo); }
  le(o: U128): bool { return !o.lt(this); }
  gt(o: U128): bool { return o.lt(this); }
  ge(o: U128): bool { return !this.lt(o); }

  add(o: U128): U128 {
    const lo = this.lo + o.lo;
    const carry: u64 = lo < this.lo ? 1 : 0;
    const hi1 = this.hi + o.hi;
    const hi = hi1 + carry;
    if (hi1 < this.hi || hi < hi1) panicStr("u128 addition overflow");
    return new U128(lo, hi);
  }

  sub(o: U128): U128 {
    if (this.lt(o)) panicStr("u128 subtraction underflow");
    return this.wrappingSub(o);
  }

  wrappingSub(o: U128): U128 {
    const borrow: u64 = this.lo < o.lo ? 1 : 0;
    return new U128(this.lo - o.lo, this.hi - o.hi - borrow);
  }

  min(o: U128): U128 { return this.lt(o) ? this : o; }

  /** this * o, panicking when the product needs more than 128 bits. */
  mul(o: U128): U128 {
    const p = mul256(this, o);
    if (p[2] != 0 || p[3] != 0) panicStr("u128 multiplication overflow");
    return new U128(p[0], p[1]);
  }

  /** floor(this * m / d) with a 256-bit intermediate product (like U256 in the core staking pool). */
  mulDiv(m: U128, d: U128): U128 {
    if (d.isZero()) panicStr("u128 division by zero");
    const p = mul256(this, m);
    let rLo: u64 = 0, rHi: u64 = 0;
    const q = new StaticArray<u64>(4);
    for (let i = 255; i >= 0; i--) {
      const bit = (p[i >> 6] >> <u64>(i & 63)) & 1;
      const carry = rHi >> 63;
      rHi = (rHi << 1) | (rLo >> 63);
      rLo = (rLo << 1) | bit;
      if (carry != 0 || rHi > d.hi || (rHi == d.hi && rLo >= d.lo)) {
        const borrow: u64 = rLo < d.lo ? 1 : 0;
        rLo -= d.lo;
        rHi = rHi - d.hi - borrow;
        q[i >> 6] |= (<u64>1) << <u64>(i & 63);
      }
    }
    if (q[2] != 0 || q[3] != 0) panicStr("u128 multiplication overflow");
    return new U128(q[0], q[1]);
  }

  /** ceil(this * m / d), also with a 256-bit intermediate product. */
  mulDivCeil(m: U128, d: U128): U128 {
    const q = this.mulDiv(m, d);
    const exact = mul256(q, d), product = mul256(this, m);
    for (let i = 0; i < 4; i++) if (exact[i] != product[i]) return q.add(U128.from(1));
    return q;
  }

  div(d: U128): U128 { return this.mulDiv(U128.from(1), d); }

  toString(): string {
    if (this.isZero()) return "0";
    const limbs = new StaticArray<u64>(4);
    limbs[0] = this.hi >> 32; limbs[1] = this.hi & 0xffffffff;
    limbs[2] = this.lo >> 32; limbs[3] = this.lo & 0xffffffff;
    let digits = "";
    while (limbs[0] | limbs[1] | limbs[2] | limbs[3]) {
      let rem: u64 = 0;
      for (let i = 0; i < 4; i++) {
        const cur = (rem << 32) | limbs[i];
        limbs[i] = cur / 10;
        rem = cur % 10;
      }
      digits = String.fromCharCode(48 + <i32>rem) + digits;
    }
    return digits;
  }

  /** Parses a decimal string (near-sdk's U128 JSON form); returns null when it is not one. */
  static parse(s: string): U128 | null {
    if (s.length == 0 || s.length > 39 || (s.length > 1 && s.charCodeAt(0) == 48)) return null;
    let lo: u64 = 0, hi: u64 = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return null;
      // (hi, lo) * 10 + c, in 32-bit pieces to see the carry.
      const l0 = (lo & 0xffffffff) * 10 + <u64>c;
      const l1 = (lo >> 32) * 10 + (l0 >> 32);
      const h0 = (hi & 0xffffffff) * 10 + (l1 >> 32);
      const h1 = (hi >> 32) * 10 + (h0 >> 32);
      if (h1 >> 32 != 0) return null;
      lo = (l1 << 32) | (l0 & 0xffffffff);
      hi = (h1 << 32) | (h0 & 0xffffffff);
    }
    return new U128(lo, hi);
  }

  /** Reads 16 little-endian bytes at ptr (the host's u128 form). */
  static load(ptr: usize): U128 { return new U128(load<u64>(ptr), load<u64>(ptr + 8)); }

  /** Writes this as 16 little-endian bytes into fresh memory and returns the pointer. */
  toPtr(): usize {
    const buf = new ArrayBuffer(16);
    const p = changetype<usize>(buf);
    store<u64>(p, this.lo);
    store<u64>(p + 8, this.hi);
    return p;
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(16);
    store<u64>(out.dataStart, this.lo);
    store<u64>(out.dataStart + 8, this.hi);
    return out;
  }

  static fromBytes(b: Uint8Array): U128 {
    if (b.length != 16) panicStr("u128 must be 16 bytes");
    return U128.load(b.dataStart);
  }
}

/** Full 256-bit product as four u64 limbs, least significant first. */
function mul256(a: U128, b: U128): StaticArray<u64> {
  const x = split(a), y = split(b);
  const acc = new StaticArray<u64>(8);
  for (let i = 0; i < 4; i++) {
    let carry: u64 = 0;
    for (let j = 0; j < 4; j++) {
      const t = x[i] * y[j] + acc[i + j] + carry;
      // x*y < 2^64 - 2^33 + 1, plus two 32-bit values: fits in u64.
      acc[i + j] = t & 0xffffffff;
      carry = t >> 32;
    }
    acc[i + 4] = carry;
  }
  const out = new StaticArray<u64>(4);
  for (let k = 0; k < 4; k++) out[k] = acc[2 * k] | (acc[2 * k + 1] << 32);
  return out;
}

function split(a: U128): StaticArray<u64> {
  const s = new StaticArray<u64>(4);
  s[0] = a.lo & 0xffffffff; s[1] = a.lo >> 32; s[2] = a.hi & 0xffffffff; s[3] = a.hi >> 32;
  return s;
}
