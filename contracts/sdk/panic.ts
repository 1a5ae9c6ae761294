import { panic_utf8 } from "./env";

/** Aborts the call with a near-sdk style message ("Smart contract panicked: {msg}" in the outcome). */
export function panicStr(msg: string): void {
  const b = String.UTF8.encode(msg);
  panic_utf8(<u64>b.byteLength, <u64>changetype<usize>(b));
  unreachable();
}

/** near-sdk's `require!(cond, msg)`. */
export function require(cond: bool, msg: string): void {
  if (!cond) panicStr(msg);
}
