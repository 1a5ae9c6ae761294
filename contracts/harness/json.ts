// Test harness (not a contract): exposes sdk/json to test/contracts/json.test.ts, which checks
// the reader against JSON.parse and the writer against JSON.stringify with fast-check. Inputs
// are written into `scratch` memory; results go out through value_return.
import { value_return } from "../sdk/env";
import { Obj, parseUtf8, quote } from "../sdk/json";

function out(s: string): void {
  const b = String.UTF8.encode(s);
  value_return(<u64>b.byteLength, <u64>changetype<usize>(b));
}

/** Parses the UTF-8 JSON at (ptr, len) and returns it written again (a panic on bad JSON). */
export function roundTrip(ptr: usize, len: usize): void {
  out(parseUtf8(ptr, len).toJson());
}

/** The writer's JSON string literal for the UTF-8 text at (ptr, len). */
export function quoteText(ptr: usize, len: usize): void {
  out(quote(String.UTF8.decodeUnsafe(ptr, len)));
}

/** `{"<text>":"<text>","n":null}` through Obj, for the UTF-8 text at (ptr, len). */
export function objectOf(ptr: usize, len: usize): void {
  const s = String.UTF8.decodeUnsafe(ptr, len);
  out(new Obj().str(s, s).optStr("n", null).build());
}

export function scratch(len: i32): usize {
  return changetype<usize>(new ArrayBuffer(len));
}
