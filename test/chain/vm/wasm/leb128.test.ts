import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteReader } from "../../../../src/chain/vm/wasm/byteReader.js";
import { ByteWriter } from "../../../../src/chain/vm/wasm/byteWriter.js";
import { WasmDecodeError } from "../../../../src/chain/vm/wasm/wasmDecodeError.js";

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
const reader = (...b: number[]): ByteReader => new ByteReader(bytes(...b));

describe("LEB128", () => {
  it("round-trips every u32, s32 and s64 through the shortest encoding", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => {
        const encoded = new ByteWriter().varU32(v).finish();
        const r = new ByteReader(encoded);
        expect(r.varU32()).toBe(v);
        expect(r.eof).toBe(true);
        expect(encoded.length).toBe(Math.max(1, Math.ceil(Math.log2(v + 1) / 7)));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (v) => {
        const r = new ByteReader(new ByteWriter().varS32(v).finish());
        expect(r.varS32()).toBe(v);
        expect(r.eof).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        const r = new ByteReader(new ByteWriter().varS64(v).finish());
        expect(r.varS64()).toBe(v);
        expect(r.eof).toBe(true);
      }),
    );
  });

  it("decodes the spec's examples, including non-minimal but in-range forms", () => {
    expect(reader(0xe5, 0x8e, 0x26).varU32()).toBe(624485);
    expect(reader(0xc0, 0xbb, 0x78).varS32()).toBe(-123456);
    expect(reader(0x80, 0x80, 0x80, 0x80, 0x00).varU32()).toBe(0); // padded to 5 bytes
    expect(reader(0xff, 0xff, 0xff, 0xff, 0x0f).varU32()).toBe(0xffffffff);
    expect(reader(0xff, 0xff, 0xff, 0xff, 0x07).varS32()).toBe(2 ** 31 - 1);
    expect(reader(0x80, 0x80, 0x80, 0x80, 0x78).varS32()).toBe(-(2 ** 31));
    expect(reader(0x7f).varS64()).toBe(-1n);
    expect(reader(0x40).varS33()).toBe(-64);
  });

  it("rejects encodings that are too long or use the unused bits, as wasmparser does", () => {
    const cases: ByteReader[] = [
      reader(0x80, 0x80, 0x80, 0x80, 0x10), // u32: 5th byte above 4 bits
      reader(0x80, 0x80, 0x80, 0x80, 0x80, 0x00), // u32: 6 bytes
      reader(0xff, 0xff, 0xff, 0xff, 0x4f), // s32: unused bits differ from the sign
      reader(0x80), // truncated
    ];
    expect(() => cases[0]!.varU32()).toThrow(WasmDecodeError);
    expect(() => cases[1]!.varU32()).toThrow(WasmDecodeError);
    expect(() => cases[2]!.varS32()).toThrow(WasmDecodeError);
    expect(() => cases[3]!.varU32()).toThrow(WasmDecodeError);
    expect(() => reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01).varS64()).toThrow(WasmDecodeError);
    expect(reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f).varS64()).toBe(-1n);
  });

  it("never throws anything but WasmDecodeError on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (input) => {
        for (const read of [
          (r: ByteReader) => r.varU32(),
          (r: ByteReader) => r.varS32(),
          (r: ByteReader) => r.varS33(),
          (r: ByteReader) => r.varS64(),
          (r: ByteReader) => r.name(),
        ]) {
          try {
            read(new ByteReader(input));
          } catch (e) {
            expect(e).toBeInstanceOf(WasmDecodeError);
          }
        }
      }),
    );
  });
});
