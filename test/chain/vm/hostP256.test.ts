/**
 * p256_verify on the real VmLogic (hostKit): nearcore's cases (near-vm-runner
 * logic/tests/p256_verify.rs: results and charged costs) and Wycheproof
 * ecdsa_secp256r1_sha256_p1363 vectors, whose SHA-256 of the message is the prehash (NEP-635:
 * the host does not hash).
 */
import { p256 } from "@noble/curves/p256";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { E, U64_MAX, hostErrorOf, hostKit } from "./hostKit.js";

const hexBytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, "hex"));
const SECRET = hexBytes("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721");
const PUBLIC = p256.getPublicKey(SECRET, true);
const sign = (prehash: Uint8Array): Uint8Array => p256.sign(prehash, SECRET, { prehash: false, lowS: false }).toCompactRawBytes();
const MESSAGE = new Uint8Array(32).fill(7);
const SIGNATURE = sign(MESSAGE);

const readMem = (bytes: number): bigint => E.read_memory_base + BigInt(bytes) * E.read_memory_byte;

function verify(signature: Uint8Array, message: Uint8Array, key: Uint8Array) {
  const k = hostKit();
  const [sl, sp] = k.put(0, signature);
  const [ml, mp] = k.put(100, message);
  const [kl, kp] = k.put(4000, key);
  let result: bigint | undefined;
  const gas = k.gasOf(() => {
    result = k.env.p256_verify(sl, sp, ml, mp, kl, kp);
  });
  return { result, gas };
}

describe("p256_verify", () => {
  it("the public key of nearcore's estimator contract (RFC 6979 A.2.5 secret)", () => {
    expect(Buffer.from(PUBLIC).toString("hex")).toBe("0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6");
  });

  it.each([
    ["a valid signature", SIGNATURE, MESSAGE, PUBLIC, 1n, readMem(64) + readMem(32) + readMem(33) + 32n * E.p256_verify_byte],
    ["an all-zero signature: 0 before the message is read", new Uint8Array(64), MESSAGE, PUBLIC, 0n, readMem(64)],
    ["a tampered prehash", SIGNATURE, Uint8Array.of(6, ...MESSAGE.subarray(1)), PUBLIC, 0n, readMem(64) + readMem(32) + readMem(33) + 32n * E.p256_verify_byte],
    ["another key", SIGNATURE, MESSAGE, p256.getPublicKey(hexBytes("112233445566778899aabbccddeeff0102030405060708090a0b0c0d0e0f1021"), true), 0n, readMem(64) + readMem(32) + readMem(33) + 32n * E.p256_verify_byte],
    ["a key that is no point (all zero)", SIGNATURE, MESSAGE, new Uint8Array(33), 0n, readMem(64) + readMem(32) + readMem(33) + 32n * E.p256_verify_byte],
    ["an empty prehash", SIGNATURE, new Uint8Array(0), PUBLIC, 0n, readMem(64) + readMem(0) + readMem(33)],
  ])("%s", (_name, signature, message, key, result, gas) => {
    const out = verify(signature, message, key);
    expect(out.result).toBe(result);
    expect(out.gas).toBe(E.p256_verify_base + gas);
  });

  it("a prehash is cut to its leading 32 bytes, and one under 16 bytes never verifies (ecdsa bits2field)", () => {
    const long = Uint8Array.from({ length: 256 }, (_, i) => i & 0xff);
    const signed = sign(long.subarray(0, 32));
    const out = verify(signed, long, PUBLIC);
    expect(out.result).toBe(1n);
    expect(out.gas).toBe(E.p256_verify_base + readMem(64) + readMem(256) + readMem(33) + 256n * E.p256_verify_byte);
    const short = new Uint8Array(16).fill(3);
    expect(verify(sign(short), short, PUBLIC).result).toBe(1n);
    const tooShort = new Uint8Array(15).fill(3);
    expect(p256.verify(sign(tooShort), tooShort, PUBLIC, { prehash: false, lowS: false })).toBe(true);
    expect(verify(sign(tooShort), tooShort, PUBLIC).result).toBe(0n);
  });

  it("wrong lengths are P256VerifyInvalidInput: the signature's before the message is read, the key's after its charge", () => {
    const k = hostKit();
    const [, sp] = k.put(0, SIGNATURE);
    const [ml, mp] = k.put(100, MESSAGE);
    const [kl, kp] = k.put(200, PUBLIC);
    let e;
    let gas = k.gasOf(() => (e = hostErrorOf(() => k.env.p256_verify(63n, sp, ml, mp, kl, kp))));
    expect(e).toEqual({ name: "P256VerifyInvalidInput", fields: { msg: "invalid signature length" } });
    expect(gas).toBe(E.p256_verify_base + readMem(63));
    gas = k.gasOf(() => (e = hostErrorOf(() => k.env.p256_verify(64n, sp, ml, mp, kl - 1n, kp))));
    expect(e).toEqual({ name: "P256VerifyInvalidInput", fields: { msg: "invalid public key length" } });
    expect(gas).toBe(E.p256_verify_base + readMem(64) + readMem(32) + 32n * E.p256_verify_byte + readMem(32));
  });

  it("reads any input from a register when its length is u64::MAX", () => {
    const k = hostKit();
    k.l.writeRegister(1n, SIGNATURE, false);
    k.l.writeRegister(2n, MESSAGE, false);
    k.l.writeRegister(3n, PUBLIC, false);
    const gas = k.gasOf(() => expect(k.env.p256_verify(U64_MAX, 1n, U64_MAX, 2n, U64_MAX, 3n)).toBe(1n));
    expect(gas).toBe(E.p256_verify_base + 3n * E.read_register_base + 129n * E.read_register_byte + 32n * E.p256_verify_byte);
  });

  // Wycheproof ecdsa_secp256r1_sha256_p1363_test.json (the cases nearcore's tests pin).
  it.each([
    ["tcId 1, low s", "022927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838", "313233343030", "2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e184cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76", 1n],
    ["tcId 60, Shamir edge case", "022927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838", "3639383139", "64a1aab5000d0e804f3e2fc02bdee9be8ff312334e2ba16d11547c97711c898e6af015971cc30be6d1a206d4e013e0997772a2f91d73286ffd683b9bb2cf4f1b", 1n],
    ["tcId 171, high s accepted", "0268ec6e298eafe16539156ce57a14b04a7047c221bafc3a582eaeb0d857c4d946", "313233343030", "7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a97fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a9", 1n],
    ["tcId 4, r replaced by n − r", "022927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838", "313233343030", "d45c5740946b2a147f59262ee6f5bc90bd01ed280528b62b3aed5fc93f06f739b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", 0n],
    ["tcId 11, r = s = 0", "022927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838", "313233343030", "00".repeat(64), 0n],
    ["tcId 25, r = n", "022927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838", "313233343030", `ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551${"00".repeat(32)}`, 0n],
    ["tcId 1 with an invalid SEC1 tag", "052927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838", "313233343030", "2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e184cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76", 0n],
  ])("Wycheproof %s", (_name, key, message, signature, result) => {
    expect(verify(hexBytes(signature), sha256(hexBytes(message)), hexBytes(key)).result).toBe(result);
  });
});
