// A small JSON reader and writer for call arguments and results. near-sdk conventions: U128 and
// U64 amounts travel as decimal strings; malformed input panics with near-sdk's message.
import { panicStr } from "./panic";
import { U128 } from "./u128";

export const BAD_JSON = "Failed to deserialize input from JSON.";

export const enum Kind { Null, Bool, Number, String, Array, Object }

/** Shared by every scalar JValue: only objects and arrays get their own member lists. */
const NO_ITEMS: JValue[] = [];
const NO_KEYS: string[] = [];

export class JValue {
  kind: Kind = Kind.Null;
  text: string = ""; // string value, or the number's literal text
  flag: bool = false;
  items: JValue[] = NO_ITEMS; // members of an object or array
  keys: string[] = NO_KEYS; // an object's keys, parallel to items

  isNull(): bool { return this.kind == Kind.Null; }

  /** A member of an object, or null when absent. */
  get(key: string): JValue | null {
    if (this.kind != Kind.Object) panicStr(BAD_JSON);
    for (let i = this.keys.length - 1; i >= 0; i--) if (this.keys[i] == key) return this.items[i];
    return null;
  }

  has(key: string): bool {
    const v = this.get(key);
    return v != null && !v.isNull();
  }

  /** A required string member. */
  str(key: string): string {
    const v = this.get(key);
    if (v == null || v.kind != Kind.String) panicStr(BAD_JSON);
    return v!.text;
  }

  /** An optional string member (null when absent or null). */
  optStr(key: string): string | null {
    const v = this.get(key);
    if (v == null || v.isNull()) return null;
    if (v.kind != Kind.String) panicStr(BAD_JSON);
    return v.text;
  }

  /** A required U128 member (decimal string). */
  u128(key: string): U128 {
    const s = this.str(key);
    const v = U128.parse(s);
    if (v == null) panicStr(BAD_JSON);
    return v!;
  }

  /** An optional u64 member written as a JSON number (near-sdk's plain `u64`/`Option<u64>`). */
  optNumberU64(key: string, dflt: u64): u64 {
    const v = this.get(key);
    if (v == null || v.isNull()) return dflt;
    if (v.kind != Kind.Number) panicStr(BAD_JSON);
    const n = U128.parse(v.text);
    if (n == null || n.hi != 0) panicStr(BAD_JSON);
    return n!.lo;
  }

  optBool(key: string, dflt: bool): bool {
    const v = this.get(key);
    if (v == null || v.isNull()) return dflt;
    if (v.kind != Kind.Bool) panicStr(BAD_JSON);
    return v.flag;
  }

  /** This value serialized back to JSON text (for pass-through fields such as NFT metadata). */
  toJson(): string {
    switch (this.kind) {
      case Kind.Null: return "null";
      case Kind.Bool: return this.flag ? "true" : "false";
      case Kind.Number: return this.text;
      case Kind.String: return quote(this.text);
      case Kind.Array: {
        const parts = new Array<string>(this.items.length);
        for (let i = 0; i < this.items.length; i++) parts[i] = this.items[i].toJson();
        return "[" + parts.join(",") + "]";
      }
      default: {
        const parts = new Array<string>(this.items.length);
        for (let i = 0; i < this.items.length; i++) parts[i] = quote(this.keys[i]) + ":" + this.items[i].toJson();
        return "{" + parts.join(",") + "}";
      }
    }
  }
}

/** Parses call arguments (UTF-8 JSON); empty input counts as `{}` (near-sdk accepts it for no-arg methods). */
export function parseArgs(bytes: Uint8Array): JValue {
  if (bytes.length == 0) {
    const v = new JValue();
    v.kind = Kind.Object;
    v.items = [];
    v.keys = [];
    return v;
  }
  const v = parseUtf8(bytes.dataStart, <usize>bytes.length);
  if (v.kind != Kind.Object) panicStr(BAD_JSON);
  return v;
}

/** Parses the UTF-8 JSON text at [ptr, ptr + len) (one value, surrounding whitespace allowed). */
export function parseUtf8(ptr: usize, len: usize): JValue {
  const p = new Parser(ptr, ptr + len);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.pos != p.end) panicStr(BAD_JSON);
  return v;
}

/**
 * A JSON reader over the input's UTF-8 bytes, as serde_json reads a slice: strings must be valid
 * UTF-8 and numbers must follow the JSON grammar. Only string values and number literals become
 * AssemblyScript strings.
 */
class Parser {
  constructor(public pos: usize, public end: usize) {}

  @inline peek(): i32 { return this.pos < this.end ? <i32>load<u8>(this.pos) : -1; }

  ws(): void {
    let p = this.pos;
    const end = this.end;
    while (p < end) {
      const c = load<u8>(p);
      if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) break;
      p++;
    }
    this.pos = p;
  }

  expect(c: i32): void {
    if (this.peek() != c) panicStr(BAD_JSON);
    this.pos++;
  }

  /** The bytes of an ASCII keyword (true, false, null). */
  literal(word: string): void {
    const n = <usize>word.length;
    if (this.end - this.pos < n) panicStr(BAD_JSON);
    for (let i: usize = 0; i < n; i++) if (<u32>load<u8>(this.pos + i) != <u32>load<u16>(changetype<usize>(word) + (i << 1))) panicStr(BAD_JSON);
    this.pos += n;
  }

  /** One value; `depth` counts the arrays and objects around it (at most 32 may nest). */
  value(depth: i32): JValue {
    const v = new JValue();
    const c = this.peek();
    if ((c == 0x7b || c == 0x5b) && depth >= 32) panicStr(BAD_JSON);
    if (c == 0x7b) { // {
      v.kind = Kind.Object;
      v.items = [];
      v.keys = [];
      this.pos++;
      this.ws();
      if (this.peek() == 0x7d) { this.pos++; return v; }
      while (true) {
        this.ws();
        v.keys.push(this.string());
        this.ws();
        this.expect(0x3a);
        this.ws();
        v.items.push(this.value(depth + 1));
        this.ws();
        if (this.peek() == 0x2c) { this.pos++; continue; }
        this.expect(0x7d);
        return v;
      }
    }
    if (c == 0x5b) { // [
      v.kind = Kind.Array;
      v.items = [];
      this.pos++;
      this.ws();
      if (this.peek() == 0x5d) { this.pos++; return v; }
      while (true) {
        this.ws();
        v.items.push(this.value(depth + 1));
        this.ws();
        if (this.peek() == 0x2c) { this.pos++; continue; }
        this.expect(0x5d);
        return v;
      }
    }
    if (c == 0x22) { v.kind = Kind.String; v.text = this.string(); return v; }
    if (c == 0x74) { this.literal("true"); v.kind = Kind.Bool; v.flag = true; return v; }
    if (c == 0x66) { this.literal("false"); v.kind = Kind.Bool; return v; }
    if (c == 0x6e) { this.literal("null"); return v; }
    v.kind = Kind.Number;
    v.text = this.number();
    return v;
  }

  /** A number literal's text: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  number(): string {
    const start = this.pos;
    if (this.peek() == 0x2d) this.pos++;
    if (this.peek() == 0x30) this.pos++;
    else if (this.digits() == 0) panicStr(BAD_JSON);
    if (this.peek() == 0x2e) {
      this.pos++;
      if (this.digits() == 0) panicStr(BAD_JSON);
    }
    const e = this.peek();
    if (e == 0x65 || e == 0x45) {
      this.pos++;
      const sign = this.peek();
      if (sign == 0x2b || sign == 0x2d) this.pos++;
      if (this.digits() == 0) panicStr(BAD_JSON);
    }
    return String.UTF8.decodeUnsafe(start, this.pos - start);
  }

  digits(): i32 {
    let n = 0;
    while (true) {
      const d = this.peek();
      if (d < 0x30 || d > 0x39) return n;
      this.pos++;
      n++;
    }
  }

  /** A string literal's value; runs without escapes are decoded straight from the input bytes. */
  string(): string {
    this.expect(0x22);
    let out = "";
    let run = this.pos;
    let p = this.pos;
    const end = this.end;
    while (true) {
      if (p >= end) panicStr(BAD_JSON);
      const c = <u32>load<u8>(p);
      if (c == 0x22) break;
      if (c < 0x20) panicStr(BAD_JSON);
      if (c >= 0x80) { p = validUtf8Char(p, end); continue; }
      if (c != 0x5c) { p++; continue; }
      if (p > run) out += String.UTF8.decodeUnsafe(run, p - run);
      if (p + 1 >= end) panicStr(BAD_JSON);
      const e = <u32>load<u8>(p + 1);
      p += 2;
      if (e == 0x22) out += "\"";
      else if (e == 0x5c) out += "\\";
      else if (e == 0x2f) out += "/";
      else if (e == 0x62) out += "\b";
      else if (e == 0x66) out += "\f";
      else if (e == 0x6e) out += "\n";
      else if (e == 0x72) out += "\r";
      else if (e == 0x74) out += "\t";
      else if (e == 0x75) {
        if (end - p < 4) panicStr(BAD_JSON);
        let code = 0;
        for (let i = 0; i < 4; i++) {
          const h = <i32>load<u8>(p + i);
          const d = h >= 0x30 && h <= 0x39 ? h - 0x30 : h >= 0x61 && h <= 0x66 ? h - 0x57 : h >= 0x41 && h <= 0x46 ? h - 0x37 : -1;
          if (d < 0) panicStr(BAD_JSON);
          code = code * 16 + d;
        }
        out += String.fromCharCode(code);
        p += 4;
      } else panicStr(BAD_JSON);
      run = p;
    }
    this.pos = p + 1;
    const tail = String.UTF8.decodeUnsafe(run, p - run);
    return out.length == 0 ? tail : out + tail;
  }
}

/**
 * The end of the well-formed UTF-8 sequence starting with the non-ASCII byte at p (Rust's
 * str::from_utf8 rules: no overlong forms, no surrogates, at most U+10FFFF); panics otherwise.
 */
function validUtf8Char(p: usize, end: usize): usize {
  const b0 = <u32>load<u8>(p);
  let n: usize, lo: u32 = 0x80, hi: u32 = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) n = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    n = 3;
    if (b0 == 0xe0) lo = 0xa0;
    else if (b0 == 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    n = 4;
    if (b0 == 0xf0) lo = 0x90;
    else if (b0 == 0xf4) hi = 0x8f;
  } else {
    panicStr(BAD_JSON);
    return p;
  }
  if (end - p < n) panicStr(BAD_JSON);
  const b1 = <u32>load<u8>(p + 1);
  if (b1 < lo || b1 > hi) panicStr(BAD_JSON);
  for (let i: usize = 2; i < n; i++) {
    const b = <u32>load<u8>(p + i);
    if (b < 0x80 || b > 0xbf) panicStr(BAD_JSON);
  }
  return p + n;
}

const HEX = "0123456789abcdef";

/**
 * JSON text built in one growing string (code units written in place, the block grown and at
 * the end trimmed with the runtime's __renew): no intermediate string per piece.
 * `finish()` hands the text over; the writer is not used after it.
 */
export class JsonWriter {
  private buf: usize;
  private len: usize = 0; // bytes written (2 per code unit)
  private cap: usize;

  constructor(units: i32 = 64) {
    this.cap = <usize>max(units, 16) << 1;
    this.buf = __new(this.cap, idof<String>());
  }

  /** Room for n more code units; the address to write them at. */
  private room(n: usize): usize {
    const need = this.len + (n << 1);
    if (need > this.cap) {
      this.cap = max(need, this.cap << 1);
      this.buf = __renew(this.buf, this.cap);
    }
    return this.buf + this.len;
  }

  /** One code unit. */
  char(c: i32): JsonWriter {
    store<u16>(this.room(1), c);
    this.len += 2;
    return this;
  }

  /** Text copied as it is (already JSON, or known to need no escaping). */
  raw(s: string): JsonWriter {
    this.units(changetype<usize>(s), <usize>s.length);
    return this;
  }

  /** A JSON string literal for s, escaped as serde_json does (\" \\ \b \f \n \r \t, other controls as \u00XX). */
  quoted(s: string): JsonWriter {
    const src = changetype<usize>(s);
    const n = <usize>s.length;
    this.char(0x22);
    let run: usize = 0;
    for (let i: usize = 0; i < n; i++) {
      const c = <i32>load<u16>(src + (i << 1));
      if (c >= 0x20 && c != 0x22 && c != 0x5c) continue;
      this.units(src + (run << 1), i - run);
      this.char(0x5c);
      if (c == 0x22 || c == 0x5c) this.char(c);
      else if (c == 0x08) this.char(0x62);
      else if (c == 0x0c) this.char(0x66);
      else if (c == 0x0a) this.char(0x6e);
      else if (c == 0x0d) this.char(0x72);
      else if (c == 0x09) this.char(0x74);
      else this.raw("u00").char(HEX.charCodeAt(c >> 4)).char(HEX.charCodeAt(c & 15));
      run = i + 1;
    }
    this.units(src + (run << 1), n - run);
    return this.char(0x22);
  }

  /** n code units copied from src. */
  private units(src: usize, n: usize): void {
    memory.copy(this.room(n), src, n << 1);
    this.len += n << 1;
  }

  /** The text written. */
  finish(): string {
    return changetype<string>(__renew(this.buf, this.len));
  }
}

/** A JSON string literal for s (escapes quotes, backslashes and control characters). */
export function quote(s: string): string {
  return new JsonWriter(s.length + 2).quoted(s).finish();
}

/** Builds one JSON object, members in insertion order (serde's field order); `build()` ends it. */
export class Obj {
  private w: JsonWriter = new JsonWriter();
  private empty: bool = true;

  /** Starts a member: the separator and the quoted key. */
  private key(key: string): JsonWriter {
    this.w.char(this.empty ? 0x7b : 0x2c);
    this.empty = false;
    return this.w.quoted(key).char(0x3a);
  }

  raw(key: string, json: string): Obj { this.key(key).raw(json); return this; }
  str(key: string, v: string): Obj { this.key(key).quoted(v); return this; }
  optStr(key: string, v: string | null): Obj { return v == null ? this.raw(key, "null") : this.str(key, v); }
  /** Digits need no escaping: written between quotes as they are. */
  u128(key: string, v: U128): Obj { this.key(key).char(0x22).raw(v.toString()).char(0x22); return this; }
  num(key: string, v: u64): Obj { return this.raw(key, v.toString()); }
  bool(key: string, v: bool): Obj { return this.raw(key, v ? "true" : "false"); }
  build(): string { return this.empty ? "{}" : this.w.char(0x7d).finish(); }
}

/** A JSON array of already-serialized items. */
export function arr(items: string[]): string {
  const w = new JsonWriter().char(0x5b);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) w.char(0x2c);
    w.raw(items[i]);
  }
  return w.char(0x5d).finish();
}
