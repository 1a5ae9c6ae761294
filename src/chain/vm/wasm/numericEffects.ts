import { ValType } from "./wasmTypes.js";

/** Operand stack effect of a numeric operator: how many operands it pops and the type it pushes. */
export interface NumericEffect {
  readonly pops: number;
  readonly push: ValType;
}

const { i32, i64, f32, f64 } = ValType;

function range(table: Map<number, NumericEffect>, from: number, to: number, pops: number, push: ValType): void {
  for (let code = from; code <= to; code++) table.set(code, { pops, push });
}

/** Effects of MVP numeric opcodes 0x45-0xBF, sign-extension 0xC0-0xC4 and saturating truncation 0xFC00-0xFC07. */
export const NUMERIC_EFFECTS: ReadonlyMap<number, NumericEffect> = (() => {
  const t = new Map<number, NumericEffect>();
  range(t, 0x45, 0x45, 1, i32); // i32.eqz
  range(t, 0x46, 0x4f, 2, i32); // i32 comparisons
  range(t, 0x50, 0x50, 1, i32); // i64.eqz
  range(t, 0x51, 0x5a, 2, i32); // i64 comparisons
  range(t, 0x5b, 0x66, 2, i32); // f32, f64 comparisons
  range(t, 0x67, 0x69, 1, i32); // i32 clz ctz popcnt
  range(t, 0x6a, 0x78, 2, i32); // i32 arithmetic
  range(t, 0x79, 0x7b, 1, i64);
  range(t, 0x7c, 0x8a, 2, i64);
  range(t, 0x8b, 0x91, 1, f32);
  range(t, 0x92, 0x98, 2, f32);
  range(t, 0x99, 0x9f, 1, f64);
  range(t, 0xa0, 0xa6, 2, f64);
  range(t, 0xa7, 0xab, 1, i32); // wrap, trunc to i32
  range(t, 0xac, 0xb1, 1, i64); // extend, trunc to i64
  range(t, 0xb2, 0xb6, 1, f32); // convert to f32, demote
  range(t, 0xb7, 0xbb, 1, f64); // convert to f64, promote
  range(t, 0xbc, 0xbc, 1, i32); // reinterpret
  range(t, 0xbd, 0xbd, 1, i64);
  range(t, 0xbe, 0xbe, 1, f32);
  range(t, 0xbf, 0xbf, 1, f64);
  range(t, 0xc0, 0xc1, 1, i32); // i32.extend8_s, extend16_s
  range(t, 0xc2, 0xc4, 1, i64); // i64.extend8_s, extend16_s, extend32_s
  range(t, 0xfc00, 0xfc03, 1, i32); // i32.trunc_sat_*
  range(t, 0xfc04, 0xfc07, 1, i64); // i64.trunc_sat_*
  return t;
})();

/** Numeric operators that may trap: integer division and remainder, non-saturating float-to-int. */
export function isTrappingNumeric(code: number): boolean {
  return (
    (code >= 0x6d && code <= 0x70) || // i32 div_s div_u rem_s rem_u
    (code >= 0x7f && code <= 0x82) || // i64 div_s div_u rem_s rem_u
    (code >= 0xa8 && code <= 0xab) || // i32.trunc_f*
    (code >= 0xae && code <= 0xb1) // i64.trunc_f*
  );
}
