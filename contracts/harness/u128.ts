// Test harness (not a contract): exposes sdk/u128 to test/contracts/u128.test.ts, which checks
// it against BigInt with fast-check. Results go out through two globals (lo, hi) or value_return.
import { value_return } from "../sdk/env";
import { U128 } from "../sdk/u128";

export let lo: u64 = 0;
export let hi: u64 = 0;

function out(v: U128): void {
  lo = v.lo;
  hi = v.hi;
}

export function add(alo: u64, ahi: u64, blo: u64, bhi: u64): void { out(new U128(alo, ahi).add(new U128(blo, bhi))); }
export function sub(alo: u64, ahi: u64, blo: u64, bhi: u64): void { out(new U128(alo, ahi).sub(new U128(blo, bhi))); }
export function mul(alo: u64, ahi: u64, blo: u64, bhi: u64): void { out(new U128(alo, ahi).mul(new U128(blo, bhi))); }
export function mulDiv(alo: u64, ahi: u64, blo: u64, bhi: u64, clo: u64, chi: u64): void {
  out(new U128(alo, ahi).mulDiv(new U128(blo, bhi), new U128(clo, chi)));
}
export function mulDivCeil(alo: u64, ahi: u64, blo: u64, bhi: u64, clo: u64, chi: u64): void {
  out(new U128(alo, ahi).mulDivCeil(new U128(blo, bhi), new U128(clo, chi)));
}
export function lt(alo: u64, ahi: u64, blo: u64, bhi: u64): bool { return new U128(alo, ahi).lt(new U128(blo, bhi)); }

/** Decimal text of (lo, hi) through value_return. */
export function toDecimal(alo: u64, ahi: u64): void {
  const b = String.UTF8.encode(new U128(alo, ahi).toString());
  value_return(<u64>b.byteLength, <u64>changetype<usize>(b));
}

/** Parses the decimal text at (ptr, len); returns false when it is not a u128. */
export function parse(ptr: usize, len: usize): bool {
  const v = U128.parse(String.UTF8.decodeUnsafe(ptr, len));
  if (v == null) return false;
  out(v);
  return true;
}

/** Scratch memory for the caller to write decimal text into. */
export function scratch(len: i32): usize {
  return changetype<usize>(new ArrayBuffer(len));
}
