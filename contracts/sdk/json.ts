// A small JSON reader and writer for call arguments and results. near-sdk conventions: U128 and
// U64 amounts travel as decimal strings; malformed input panics with near-sdk's message.
import { panicStr } from "./panic";
import { U128 } from "./u128";

export const BAD_JSON = "Failed to deserialize input from JSON.";

export const enum Kind { Null, Bool, Number, String, Array, Object }

export class JValue {
  kind: Kind = Kind.Null;
  text: string = ""; // string value, or the number's literal text
  flag: bool = false;
  items: JValue[] = [];
  keys: string[] = [];

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

  /** An optional string member ("" when absent or null). */
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

/** Parses JSON text; panics with near-sdk's message on any syntax error. */
export function parseJson(text: string): JValue {
  const p = new Parser(text);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.pos != text.length) panicStr(BAD_JSON);
  return v;
}

/** Parses call arguments; empty input counts as `{}` (near-sdk accepts it for no-arg methods). */
export function parseArgs(bytes: Uint8Array): JValue {
  if (bytes.length == 0) {
    const v = new JValue();
    v.kind = Kind.Object;
    return v;
  }
  const v = parseJson(String.UTF8.decodeUnsafe(bytes.dataStart, <usize>bytes.length));
  if (v.kind != Kind.Object) panicStr(BAD_JSON);
  return v;
}

class Parser {
  pos: i32 = 0;
  constructor(public s: string) {}

  ws(): void {
    while (this.pos < this.s.length) {
      const c = this.s.charCodeAt(this.pos);
      if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) break;
      this.pos++;
    }
  }

  peek(): i32 { return this.pos < this.s.length ? this.s.charCodeAt(this.pos) : -1; }

  expect(c: i32): void {
    if (this.peek() != c) panicStr(BAD_JSON);
    this.pos++;
  }

  literal(word: string): void {
    if (this.s.substr(this.pos, word.length) != word) panicStr(BAD_JSON);
    this.pos += word.length;
  }

  value(depth: i32): JValue {
    if (depth > 32) panicStr(BAD_JSON);
    const v = new JValue();
    const c = this.peek();
    if (c == 0x7b) { // {
      v.kind = Kind.Object;
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
    const start = this.pos;
    if (this.peek() == 0x2d) this.pos++;
    let digits = 0;
    while (true) {
      const d = this.peek();
      if ((d >= 0x30 && d <= 0x39) || d == 0x2e || d == 0x65 || d == 0x45 || d == 0x2b || d == 0x2d) { this.pos++; digits++; } else break;
    }
    if (digits == 0) panicStr(BAD_JSON);
    v.text = this.s.substring(start, this.pos);
    return v;
  }

  string(): string {
    this.expect(0x22);
    let out = "";
    let run = this.pos;
    while (true) {
      if (this.pos >= this.s.length) panicStr(BAD_JSON);
      const c = this.s.charCodeAt(this.pos);
      if (c == 0x22) break;
      if (c < 0x20) panicStr(BAD_JSON);
      if (c != 0x5c) { this.pos++; continue; }
      out += this.s.substring(run, this.pos);
      const e = this.s.charCodeAt(this.pos + 1);
      this.pos += 2;
      if (e == 0x22) out += "\"";
      else if (e == 0x5c) out += "\\";
      else if (e == 0x2f) out += "/";
      else if (e == 0x62) out += "\b";
      else if (e == 0x66) out += "\f";
      else if (e == 0x6e) out += "\n";
      else if (e == 0x72) out += "\r";
      else if (e == 0x74) out += "\t";
      else if (e == 0x75) {
        const hex = this.s.substr(this.pos, 4);
        if (hex.length != 4) panicStr(BAD_JSON);
        let code = 0;
        for (let i = 0; i < 4; i++) {
          const h = hex.charCodeAt(i);
          const d = h >= 0x30 && h <= 0x39 ? h - 0x30 : h >= 0x61 && h <= 0x66 ? h - 0x57 : h >= 0x41 && h <= 0x46 ? h - 0x37 : -1;
          if (d < 0) panicStr(BAD_JSON);
          code = code * 16 + d;
        }
        out += String.fromCharCode(code);
        this.pos += 4;
      } else panicStr(BAD_JSON);
      run = this.pos;
    }
    out += this.s.substring(run, this.pos);
    this.pos++;
    return out;
  }
}

const HEX = "0123456789abcdef";

/** A JSON string literal for s (escapes quotes, backslashes and control characters). */
export function quote(s: string): string {
  let out = "\"";
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c != 0x22 && c != 0x5c) continue;
    out += s.substring(run, i);
    if (c == 0x22) out += "\\\"";
    else if (c == 0x5c) out += "\\\\";
    else if (c == 0x0a) out += "\\n";
    else if (c == 0x0d) out += "\\r";
    else if (c == 0x09) out += "\\t";
    else out += "\\u00" + HEX.charAt(c >> 4) + HEX.charAt(c & 15);
    run = i + 1;
  }
  return out + s.substring(run) + "\"";
}

/** Builds one JSON object, members in insertion order (serde's field order). */
export class Obj {
  private parts: string[] = [];
  raw(key: string, json: string): Obj { this.parts.push(quote(key) + ":" + json); return this; }
  str(key: string, v: string): Obj { return this.raw(key, quote(v)); }
  optStr(key: string, v: string | null): Obj { return this.raw(key, v == null ? "null" : quote(v)); }
  u128(key: string, v: U128): Obj { return this.raw(key, quote(v.toString())); }
  num(key: string, v: u64): Obj { return this.raw(key, v.toString()); }
  bool(key: string, v: bool): Obj { return this.raw(key, v ? "true" : "false"); }
  build(): string { return "{" + this.parts.join(",") + "}"; }
}

/** A JSON array of already-serialized items. */
export function arr(items: string[]): string {
  return "[" + items.join(",") + "]";
}
