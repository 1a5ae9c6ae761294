import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { HARNESS_DIR, compileFile } from "../../contracts/build.js";

/**
 * sdk/json (compiled with the contracts' flags) against the JavaScript engine's JSON: the reader
 * accepts exactly what JSON.parse accepts from valid UTF-8 (as serde_json reads a byte slice),
 * nested at most 32 deep, with the same value; the writer escapes strings as JSON.stringify
 * (and serde_json) do.
 */
class Panic extends Error {}

let exports: Record<string, unknown>;
let returned = "";

beforeAll(async () => {
  const wasm = await compileFile(join(HARNESS_DIR, "json.ts"));
  const memory = () => exports["memory"] as WebAssembly.Memory;
  const text = (len: bigint, ptr: bigint) => Buffer.from(new Uint8Array(memory().buffer, Number(ptr), Number(len))).toString();
  const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), {
    env: {
      panic_utf8: (len: bigint, ptr: bigint) => {
        throw new Panic(text(len, ptr));
      },
      value_return: (len: bigint, ptr: bigint) => {
        returned = text(len, ptr);
      },
      abort: () => {
        throw new Error("abort");
      },
    },
  });
  exports = instance.exports as Record<string, unknown>;
});

/** Calls a harness function on bytes: its result text, or "panic: …". */
function run(name: string, bytes: Uint8Array): string {
  const ptr = (exports["scratch"] as (n: number) => number)(bytes.length);
  new Uint8Array((exports["memory"] as WebAssembly.Memory).buffer).set(bytes, ptr);
  try {
    (exports[name] as (p: number, n: number) => void)(ptr, bytes.length);
    return returned;
  } catch (e) {
    if (e instanceof Panic) return `panic: ${e.message}`;
    throw e;
  }
}

const BAD_JSON = "panic: Failed to deserialize input from JSON.";
const utf8 = new TextDecoder("utf-8", { fatal: true });

function depth(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depth));
  if (v !== null && typeof v === "object") return 1 + Math.max(0, ...Object.values(v).map(depth));
  return 0;
}

/** What the reader should do with bytes: the value JSON.parse gives, or undefined for a rejection. */
function expected(bytes: Uint8Array): { value: unknown } | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined; // not UTF-8
  }
  if (text.charCodeAt(0) === 0xfeff) return undefined; // TextDecoder drops a BOM; serde_json rejects it
  try {
    const value: unknown = JSON.parse(text);
    return depth(value) <= 32 ? { value } : undefined;
  } catch {
    return undefined;
  }
}

function check(bytes: Uint8Array): void {
  const got = run("roundTrip", bytes);
  const want = expected(bytes);
  if (want === undefined) expect(got, Buffer.from(bytes).toString("hex")).toBe(BAD_JSON);
  else expect(JSON.parse(got), got).toEqual(want.value);
}

const enc = new TextEncoder();

describe("sdk/json", () => {
  it("reads every JSON value back as JSON.parse does (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (v, pretty) => {
        check(enc.encode(pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v)));
      }),
      { numRuns: 400 },
    );
  });

  it("rejects exactly what JSON.parse rejects, and invalid UTF-8 (property)", () => {
    const token = fc.constantFrom("{", "}", "[", "]", ":", ",", '"', "\\", "\\u00e9", "\\ud83d\\ude00", "-", "0", "1", "9", ".", "e", "E", "+", "true", "false", "null", "nul", " ", "\n", "\t", "é", "😀", "a", "\u0001", "\u007f");
    const texts = fc.array(token, { maxLength: 12 }).map((t) => enc.encode(t.join("")));
    const bytes = fc.uint8Array({ maxLength: 16 });
    fc.assert(fc.property(fc.oneof(texts, bytes), check), { numRuns: 2000 });
  });

  it("follows the JSON grammar and UTF-8 rules at the edges", () => {
    const cases: [string | number[], boolean][] = [
      ['{"a":1}', true], ["  [1, -0, 0.5, 1e5, -1E-5, 2e+3]  ", true], ['"\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"', true],
      ["01", false], ["1.", false], [".5", false], ["1e", false], ["-", false], ["+1", false], ["1.2.3", false],
      ['{"a":1,}', false], ["[1,]", false], ['{"a" 1}', false], ["tru", false], ["nulll", false], ['"\\x"', false],
      ['"\\u12"', false], ['"a', false], ['"\t"', false], ["", false], ["1 2", false],
      ["[".repeat(32) + "1" + "]".repeat(32), true], ["[".repeat(33) + "]".repeat(33), false],
      [[0x22, 0xc3, 0xa9, 0x22], true], [[0x22, 0xc3, 0x22], false], [[0x22, 0xc0, 0xaf, 0x22], false],
      [[0x22, 0xed, 0xa0, 0x80, 0x22], false], [[0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], false], [[0x22, 0xff, 0x22], false],
      [[0x22, 0xf0, 0x9f, 0x98, 0x80, 0x22], true],
    ];
    for (const [input, ok] of cases) {
      const bytes = typeof input === "string" ? enc.encode(input) : Uint8Array.from(input);
      expect(expected(bytes) !== undefined, String(input)).toBe(ok);
      check(bytes);
    }
  });

  it("writes string literals as JSON.stringify does (property)", () => {
    const text = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }));
    fc.assert(
      fc.property(text, (s) => {
        expect(run("quoteText", enc.encode(s))).toBe(JSON.stringify(s));
        if (s !== "n") expect(run("objectOf", enc.encode(s))).toBe(JSON.stringify({ [s]: s, n: null }));
      }),
      { numRuns: 500 },
    );
  });
});
