import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Base58Error, base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { Base64Error, base64Decode, base64DecodeToLatin1, base64Encode } from "../../../src/chain/primitives/base64.js";
import { ZERO_HASH, ZERO_HASH_BASE58, formatCryptoHash, parseCryptoHash } from "../../../src/chain/primitives/cryptoHash.js";
import { bytesToLatin1, latin1ToBytes } from "../../../src/chain/primitives/latin1.js";
import { sha256, sha256Utf8 } from "../../../src/chain/primitives/sha256.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const fromHex = (h: string) => new Uint8Array(Buffer.from(h, "hex"));

describe("base58", () => {
  it.each([
    ["", ""],
    ["00", "1"],
    ["0000", "11"],
    ["61", "2g"],
    ["626262", "a3gV"],
    ["636363", "aPEr"],
    ["68656c6c6f20776f726c64", "StV1DL6CwTryKyV"], // "hello world"
    ["00000000000000000000", "1111111111"],
    ["000000287fb4cd", "111233QC4"],
    ["ffffffff", "7YXq9G"],
  ])("encodes %s as %j and back", (h, text) => {
    expect(base58Encode(fromHex(h))).toBe(text);
    expect(hex(base58Decode(text))).toBe(h);
  });

  it("maps the zero hash to 32 '1's", () => {
    expect(base58Encode(new Uint8Array(32))).toBe("11111111111111111111111111111111");
    expect(formatCryptoHash(ZERO_HASH)).toBe(ZERO_HASH_BASE58);
  });

  it.each(["0", "O", "I", "l", "abc def", "abc+", "ä", " 1"])("rejects %j", (text) => {
    expect(() => base58Decode(text)).toThrow(Base58Error);
  });

  it("names the bad character and its position", () => {
    expect(() => base58Decode("12O4")).toThrow('invalid base58 character "O" at position 2');
  });

  it("round-trips arbitrary bytes (property)", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 80 }), (b) => {
      expect(hex(base58Decode(base58Encode(b)))).toBe(hex(b));
    }));
  });

  it("encodes as a BigInt reference does, leading zero bytes as '1's (property)", () => {
    const reference = (b: Uint8Array): string => {
      const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
      let n = b.length === 0 ? 0n : BigInt(`0x${hex(b) || "0"}`);
      let out = "";
      while (n > 0n) {
        out = alphabet[Number(n % 58n)]! + out;
        n /= 58n;
      }
      let zeros = 0;
      while (zeros < b.length && b[zeros] === 0) zeros++;
      return "1".repeat(zeros) + out;
    };
    fc.assert(
      fc.property(fc.nat(4), fc.uint8Array({ maxLength: 120 }), (zeros, tail) => {
        const b = new Uint8Array(zeros + tail.length);
        b.set(tail, zeros);
        expect(base58Encode(b)).toBe(reference(b));
      }),
      { numRuns: 2_000 },
    );
  });

  it("encodes inputs longer than one text slice (over 8,192 digits)", () => {
    const bytes = Uint8Array.from({ length: 7_000 }, (_, i) => (i * 131 + 7) & 0xff);
    const text = base58Encode(bytes);
    expect(text.length).toBeGreaterThan(8_192);
    expect(text).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    expect(hex(base58Decode(text))).toBe(hex(bytes));
  });
});

describe("CryptoHash", () => {
  it("parses only 32-byte base58 values", () => {
    const h = sha256(new Uint8Array());
    expect(parseCryptoHash(formatCryptoHash(h))).toEqual(h);
    expect(() => parseCryptoHash("1111")).toThrow(/32 bytes/);
    expect(() => formatCryptoHash(new Uint8Array(31))).toThrow(RangeError);
  });
});

describe("sha256", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
  ])("hashes %j", (text, digest) => {
    expect(hex(sha256(new TextEncoder().encode(text)))).toBe(digest);
    expect(hex(sha256Utf8(text))).toBe(digest);
  });

  // FIPS 180-2 examples: one block, two blocks (56 bytes, the length in the second), a whole
  // block before the tail (112 bytes), and a million bytes (node:crypto's path).
  it.each([
    ["abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
    ["a".repeat(1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"],
  ])("hashes FIPS 180-2 example %#", (text, digest) => {
    expect(hex(sha256(new TextEncoder().encode(text)))).toBe(digest);
  });

  it("agrees with node:crypto for every length up to 300 bytes, at any offset in a larger buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(16), (bytes, offset) => {
        const backing = new Uint8Array(offset + bytes.length + 16).fill(0xa5);
        backing.set(bytes, offset);
        const view = backing.subarray(offset, offset + bytes.length);
        const digest = sha256(view);
        expect(hex(digest)).toBe(createHash("sha256").update(bytes).digest("hex"));
        expect(digest.length).toBe(32);
      }),
      { numRuns: 2_000 },
    );
    for (let n = 0; n <= 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 255);
      expect(hex(sha256(bytes))).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
  });

  it("gives each call its own digest", () => {
    const first = sha256(new Uint8Array([1]));
    const copy = Uint8Array.from(first);
    sha256(new Uint8Array([2]));
    expect(first).toEqual(copy);
    expect(first.byteOffset).toBe(0);
    expect(first.buffer.byteLength).toBe(32);
  });

  it("hashes text as the bytes TextEncoder makes of it, lone surrogates included", () => {
    for (const text of ["é😀", "EVENT_JSON:{\"amount\":\"1\"}", "\ud800x", "x\udfff", "\udc00\ud800"]) {
      expect(hex(sha256Utf8(text))).toBe(hex(sha256(new TextEncoder().encode(text))));
    }
  });
});

describe("base64 (strict)", () => {
  it.each([
    ["", ""],
    ["QQ==", "41"],
    ["QUI=", "4142"],
    ["QUJD", "414243"],
    ["/+8=", "ffef"],
    ["AAAA", "000000"],
  ])("decodes %j", (text, h) => {
    expect(hex(base64Decode(text))).toBe(h);
    expect(base64Encode(fromHex(h))).toBe(text);
    expect(base64DecodeToLatin1(text)).toBe(Buffer.from(h, "hex").toString("latin1"));
  });

  it.each([
    ["QQ", /multiple of 4/],
    ["QQ=", /multiple of 4/],
    ["Q===", /invalid base64 character/],
    ["QQ=A", /invalid base64 character/],
    ["=QQA", /invalid base64 character/],
    ["QQ-_", /invalid base64 character/], // base64url alphabet
    ["QQ\nA", /invalid base64 character/],
    ["QR==", /non-zero bits/],
    ["QUJ=", /non-zero bits/],
    ["QUJDñ===", /invalid base64 character/],
  ])("rejects %j", (text, message) => {
    expect(() => base64Decode(text)).toThrow(Base64Error);
    expect(() => base64Decode(text)).toThrow(message);
  });

  it("returns an unshared buffer", () => {
    const b = base64Decode("QUJD");
    expect(b.byteOffset).toBe(0);
    expect(b.buffer.byteLength).toBe(3);
  });

  it("round-trips arbitrary bytes (property)", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
      expect(hex(base64Decode(base64Encode(b)))).toBe(hex(b));
    }));
  });
});

describe("latin1 byte strings", () => {
  it("round-trip every byte value and keep byte order under <", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(latin1ToBytes(bytesToLatin1(all))).toEqual(all);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 6 }), fc.uint8Array({ maxLength: 6 }), (a, b) => {
        const byBytes = Buffer.compare(Buffer.from(a), Buffer.from(b));
        const sa = bytesToLatin1(a);
        const sb = bytesToLatin1(b);
        expect(Math.sign(byBytes)).toBe(sa < sb ? -1 : sa > sb ? 1 : 0);
      }),
    );
  });
});
