import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { secp256k1PublicKeyOf, secp256k1Sign } from "@shardkit/primitives/secp256k1";
import { E, P, U64_MAX, hostErrorOf, hostKit } from "./hostKit.js";

const hex = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString("hex");
const utf16 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "utf16le"));

describe("math", () => {
  it.each([
    ["sha256", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256_base", "sha256_byte"],
    ["keccak256", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45", "keccak256_base", "keccak256_byte"],
    [
      "keccak512",
      "18587dc2ea106b9a1563e32b3312421ca164c7f1f07bc922a9c83d77cea3a1e5d0c69910739025372dc14ac9642629379540c17e2a65b19d77aa511a9d00bb96",
      "keccak512_base",
      "keccak512_byte",
    ],
  ] as const)("%s of 'abc' into a register with nearcore's charges", (name, digest, base, byte) => {
    const k = hostKit();
    const [len, ptr] = k.put(0, "abc");
    const g = k.gasOf(() => k.env[name]!(len, ptr, 1n));
    expect(hex(k.register(1n))).toBe(digest);
    const out = BigInt(digest.length / 2);
    expect(g).toBe(E[base] + E.read_memory_base + 3n * E.read_memory_byte + 3n * E[byte] + E.write_register_base + out * E.write_register_byte);
  });

  it("ripemd160 charges per 64-byte block of the padded message", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, "abc");
    const g = k.gasOf(() => k.env.ripemd160(len, ptr, 1n));
    expect(hex(k.register(1n))).toBe("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc");
    expect(g).toBe(E.ripemd160_base + E.read_memory_base + 3n * E.read_memory_byte + E.ripemd160_block + E.write_register_base + 20n * E.write_register_byte);
    const [l56, p56] = k.put(0, new Uint8Array(56));
    const g56 = k.gasOf(() => k.env.ripemd160(l56, p56, 1n));
    expect(g56 - (E.ripemd160_base + E.read_memory_base + 56n * E.read_memory_byte + E.write_register_base + 20n * E.write_register_byte)).toBe(2n * E.ripemd160_block);
  });

  it("ed25519_verify: 1 for a good signature, 0 for a bad one, an error for bad lengths", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(12));
    const msg = new TextEncoder().encode("hello near");
    const sig = new Uint8Array(sign(null, msg, privateKey));
    const k = hostKit();
    const [sl, sp] = k.put(0, sig);
    const [ml, mp] = k.put(100, msg);
    const [pl, pp] = k.put(200, raw);
    expect(k.env.ed25519_verify(sl, sp, ml, mp, pl, pp)).toBe(1n);
    k.put(100, "jello near");
    expect(k.env.ed25519_verify(sl, sp, ml, mp, pl, pp)).toBe(0n);
    expect(hostErrorOf(() => k.env.ed25519_verify(63n, sp, ml, mp, pl, pp))).toEqual({
      name: "Ed25519VerifyInvalidInput",
      fields: { msg: "invalid signature length" },
    });
    expect(hostErrorOf(() => k.env.ed25519_verify(sl, sp, ml, mp, 31n, pp))).toEqual({
      name: "Ed25519VerifyInvalidInput",
      fields: { msg: "invalid public key length" },
    });
  });

  it("ecrecover recovers the signer's 64-byte key; malleable or unrecoverable signatures give 0", () => {
    const secret = sha256(new TextEncoder().encode("ecrecover test key"));
    const hash = sha256(new TextEncoder().encode("message"));
    const signed = secp256k1Sign(hash, secret);
    const k = hostKit();
    const [hl, hp] = k.put(0, hash);
    const [sl, sp] = k.put(100, signed.subarray(0, 64));
    const g = k.gasOf(() => expect(k.env.ecrecover(hl, hp, sl, sp, BigInt(signed[64]!), 1n, 1n)).toBe(1n));
    expect(k.register(1n)).toEqual(secp256k1PublicKeyOf(secret));
    expect(g).toBe(E.ecrecover_base + 2n * E.read_memory_base + 96n * E.read_memory_byte + E.write_register_base + 64n * E.write_register_byte);
    // The other recovery id yields another key; a high s is rejected only with the flag.
    expect(k.env.ecrecover(hl, hp, sl, sp, BigInt(signed[64]! ^ 1), 0n, 2n)).toBe(1n);
    expect(k.register(2n)).not.toEqual(k.register(1n));
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${Buffer.from(signed.subarray(32, 64)).toString("hex")}`);
    k.put(132, Buffer.from((N - s).toString(16).padStart(64, "0"), "hex"));
    expect(k.env.ecrecover(hl, hp, sl, sp, BigInt(signed[64]! ^ 1), 1n, 3n)).toBe(0n);
    expect(k.env.ecrecover(hl, hp, sl, sp, BigInt(signed[64]! ^ 1), 0n, 3n)).toBe(1n);
    expect(k.register(3n)).toEqual(secp256k1PublicKeyOf(secret));
    k.put(100, new Uint8Array(64));
    expect(k.env.ecrecover(hl, hp, sl, sp, 0n, 0n, 4n)).toBe(0n);
  });

  it("random_seed, and ecrecover's input checks", () => {
    const k = hostKit();
    k.env.random_seed(0n);
    expect(k.register(0n)).toEqual(new Uint8Array(32).fill(9));
    expect(hostErrorOf(() => k.env.ecrecover(32n, 0n, 63n, 0n, 0n, 0n, 1n))).toEqual({
      name: "ECRecoverError",
      fields: { msg: "The length of the signature: 63, exceeds the limit of 64 bytes" },
    });
    expect(hostErrorOf(() => k.env.ecrecover(32n, 0n, 64n, 0n, 4n, 0n, 1n))).toEqual({
      name: "ECRecoverError",
      fields: { msg: "V recovery byte 0 through 3 are valid but was provided 4" },
    });
  });
});

describe("logs, panics and return values", () => {
  it("log_utf8: base + decoding + log fees, also NUL-terminated (paying memory per byte)", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, "héllo");
    const g = k.gasOf(() => k.env.log_utf8(len, ptr));
    expect(g).toBe(E.base + E.utf8_decoding_base + E.read_memory_base + len * E.read_memory_byte + len * E.utf8_decoding_byte + E.log_base + len * E.log_byte);
    k.put(100, "zero\0");
    const g2 = k.gasOf(() => k.env.log_utf8(U64_MAX, 100n));
    expect(g2).toBe(E.base + E.utf8_decoding_base + 5n * (E.read_memory_base + E.read_memory_byte) + 4n * E.utf8_decoding_byte + E.log_base + 4n * E.log_byte);
    expect(k.l.logs).toEqual(["héllo", "zero"]);
  });

  it("log_utf16 decodes UTF-16LE (length in bytes, or NUL-terminated) and charges UTF-8 bytes for the log", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, utf16("añb"));
    k.env.log_utf16(len, ptr);
    k.put(100, utf16("x€\0"));
    k.env.log_utf16(U64_MAX, 100n);
    expect(k.l.logs).toEqual(["añb", "x€"]);
    k.put(200, Uint8Array.of(0x00, 0xd8)); // a lone surrogate
    expect(hostErrorOf(() => k.env.log_utf16(2n, 200n))).toEqual({ name: "BadUTF16" });
    expect(hostErrorOf(() => k.env.log_utf16(3n, 200n))).toEqual({ name: "BadUTF16" });
  });

  it("rejects bad UTF-8 and enforces the log count and total length limits", () => {
    const k = hostKit();
    k.put(0, Uint8Array.of(0xff, 0xfe));
    expect(hostErrorOf(() => k.env.log_utf8(2n, 0n))).toEqual({ name: "BadUTF8" });
    const [len, ptr] = k.put(0, "x");
    for (let i = 0; i < 100; i++) k.env.log_utf8(len, ptr);
    expect(hostErrorOf(() => k.env.log_utf8(len, ptr))).toEqual({ name: "NumberOfLogsExceeded", fields: { limit: 100n } });
    const big = hostKit();
    const [bl, bp] = big.put(0, "y".repeat(10_000));
    big.env.log_utf8(bl, bp);
    expect(hostErrorOf(() => big.env.log_utf8(bl, bp))).toEqual({ name: "TotalLogLengthExceeded", fields: { length: 20_000n, limit: 16_384n } });
  });

  it("panic, panic_utf8 and AssemblyScript's abort", () => {
    const k = hostKit();
    expect(hostErrorOf(() => k.env.panic())).toEqual({ name: "GuestPanic", fields: { panic_msg: "explicit guest panic" } });
    const [len, ptr] = k.put(0, "custom reason");
    expect(hostErrorOf(() => k.env.panic_utf8(len, ptr))).toEqual({ name: "GuestPanic", fields: { panic_msg: "custom reason" } });
    // AS strings: u32 byte length at ptr - 4, then UTF-16LE.
    const asString = (at: number, s: string) => {
      const body = utf16(s);
      k.put(at - 4, Uint8Array.of(body.length, 0, 0, 0));
      k.put(at, body);
    };
    asString(104, "assertion failed");
    asString(204, "assembly/index.ts");
    const error = hostErrorOf(() => k.env.abort(104, 204, 12, 5));
    const message = 'assertion failed, filename: "assembly/index.ts" line: 12 col: 5';
    expect(error).toEqual({ name: "GuestPanic", fields: { panic_msg: message } });
    expect(k.l.logs).toEqual([`ABORT: ${message}`]);
    expect(hostErrorOf(() => k.env.abort(2, 204, 1, 1))).toEqual({ name: "BadUTF16" });
  });

  it("value_return pays data-receipt bytes per output receiver and enforces the size limit", () => {
    const k = hostKit({ outputDataReceivers: ["a.test.near", "contract.test.near"] });
    const [len, ptr] = k.put(0, "result");
    const f = P.fees.dataReceiptCreationPerByte;
    const data = (f.sendNotSir + f.execution + f.sendSir + f.execution) * len;
    expect(k.gasOf(() => k.env.value_return(len, ptr))).toBe(E.base + E.read_memory_base + len * E.read_memory_byte + data);
    expect(k.l.returnData).toEqual({ kind: "Value", value: new TextEncoder().encode("result") });
    const small = hostKit({}, { ...P, wasm: { ...P.wasm, maxLengthReturnedData: 5n } });
    const [l6, p6] = small.put(0, "result");
    expect(hostErrorOf(() => small.env.value_return(l6, p6))).toEqual({ name: "ReturnedValueLengthExceeded", fields: { length: 6n, limit: 5n } });
  });
});
