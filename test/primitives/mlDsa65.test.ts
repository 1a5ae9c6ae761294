import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { base58Decode } from "@shardkit/primitives/base58";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { mlDsa65FromSeed, mlDsa65Verify } from "@shardkit/primitives/mlDsa65";
import {
  KeyType,
  PublicKeyError,
  formatPublicKey,
  parsePublicKey,
  publicKeyFromBorsh,
  publicKeyToBorsh,
} from "@shardkit/primitives/publicKey";
import {
  formatPublicKeyAsHandle,
  formatPublicKeyHandle,
  parsePublicKeyHandle,
  publicKeyHandleBorsh,
  publicKeyHandleLength,
} from "@shardkit/primitives/publicKeyHandle";
import { SIGNATURE_LENGTH, formatSignature, writeSignature } from "@shardkit/primitives/signature";
import { TxReader } from "@shardkit/primitives/TxReader";

// nearcore core/crypto/src/signature.rs `test_ml_dsa_65_known_answer`: the seed string padded
// with spaces to 32 bytes (test_utils.rs) gives this public key.
const KAT_PUBLIC_KEY = readFileSync(new URL("./fixtures/mlDsa65KatPublicKey.txt", import.meta.url), "utf8").trim();
const KAT_MESSAGE = new TextEncoder().encode("kat-message-v1");

function nearcoreSeed(text: string): Uint8Array {
  const seed = new Uint8Array(32).fill(0x20);
  seed.set(new TextEncoder().encode(text).subarray(0, 32));
  return seed;
}

const kat = mlDsa65FromSeed(nearcoreSeed("kat-seed-v1"));
const sha256 = (b: Uint8Array) => new Uint8Array(createHash("sha256").update(b).digest());

describe("ML-DSA-65 keys (nearcore PostQuantumSignatures)", () => {
  it("derives nearcore's known-answer public key from its seed", () => {
    expect(formatPublicKey(kat.publicKey)).toBe(KAT_PUBLIC_KEY);
    expect(kat.publicKey.data.length).toBe(1952);
    expect(kat.secretKey.length).toBe(4032);
  });

  it("parses and formats `ml-dsa-65:` keys; the type name is case-insensitive", () => {
    const key = parsePublicKey(KAT_PUBLIC_KEY);
    expect(key.keyType).toBe(KeyType.MLDSA65);
    expect(key.data).toEqual(kat.publicKey.data);
    expect(parsePublicKey(KAT_PUBLIC_KEY.replace("ml-dsa-65", "ML-DSA-65"))).toEqual(key);
  });

  it.each([
    ["ml-dsa-65:", /1952 bytes, got 0/],
    [`ml-dsa-65:${"2".repeat(100)}`, /1952 bytes/],
    ["mldsa65:abc", /unknown key type "mldsa65"/],
    // The hash form names an access key in state, never a key (nearcore test_ml_dsa_65_hash_prefix_not_a_key_type).
    ["ml-dsa-65-hash:abc", /unknown key type "ml-dsa-65-hash"/],
  ])("refuses %s", (text, message) => {
    expect(() => parsePublicKey(text)).toThrow(PublicKeyError);
    expect(() => parsePublicKey(text)).toThrow(message);
  });

  it("borsh: tag 2 ‖ 1,952 bytes; tag 3 (the key handle) and truncated keys are refused", () => {
    const borsh = publicKeyToBorsh(kat.publicKey);
    expect(borsh.length).toBe(1953);
    expect(borsh[0]).toBe(2);
    expect(publicKeyFromBorsh(borsh)).toEqual({ key: kat.publicKey, read: 1953 });
    expect(() => publicKeyFromBorsh(Uint8Array.of(3, ...new Uint8Array(32)))).toThrow(/unknown borsh key type 3/);
    expect(() => publicKeyFromBorsh(borsh.subarray(0, 977))).toThrow(/truncated/);
    const reader = new TxReader(borsh);
    expect(reader.publicKey("public_key")).toEqual(kat.publicKey);
    reader.end("public_key");
  });

  it("signs and verifies over a message; a tampered message, signature or other key fails", () => {
    const sig = kat.sign(KAT_MESSAGE);
    expect(sig.length).toBe(3309);
    expect(mlDsa65Verify(KAT_MESSAGE, sig, kat.publicKey.data)).toBe(true);
    expect(mlDsa65Verify(new TextEncoder().encode("kat-message-v2"), sig, kat.publicKey.data)).toBe(false);
    const tampered = sig.slice();
    tampered[100]! ^= 0xff;
    expect(mlDsa65Verify(KAT_MESSAGE, tampered, kat.publicKey.data)).toBe(false);
    const other = mlDsa65FromSeed(nearcoreSeed("bob"));
    expect(mlDsa65Verify(KAT_MESSAGE, sig, other.publicKey.data)).toBe(false);
    // Wrong sizes and garbage are invalid, never a throw.
    expect(mlDsa65Verify(KAT_MESSAGE, sig.subarray(1), kat.publicKey.data)).toBe(false);
    expect(mlDsa65Verify(KAT_MESSAGE, new Uint8Array(3309).fill(0xff), kat.publicKey.data)).toBe(false);
    expect(mlDsa65Verify(KAT_MESSAGE, sig, new Uint8Array(1952).fill(0xff))).toBe(false);
  });

  it("signature: `ml-dsa-65:` string and borsh tag 2 ‖ 3,309 bytes", () => {
    const data = kat.sign(sha256(new TextEncoder().encode("123")));
    const signature = { keyType: KeyType.MLDSA65, data };
    expect(SIGNATURE_LENGTH[KeyType.MLDSA65]).toBe(3309);
    const text = formatSignature(signature);
    expect(text.startsWith("ml-dsa-65:")).toBe(true);
    expect(base58Decode(text.slice("ml-dsa-65:".length))).toEqual(data);
    const w = new BorshWriter();
    writeSignature(w, signature);
    const borsh = w.toBytes();
    expect(borsh.length).toBe(3310);
    expect(borsh[0]).toBe(2);
    expect(new TxReader(borsh).signature("signature")).toEqual(signature);
    expect(() => writeSignature(new BorshWriter(), { keyType: KeyType.MLDSA65, data: data.subarray(1) })).toThrow(/3309 bytes/);
  });
});

describe("access key handles (nearcore PublicKeyHandle)", () => {
  it("an ML-DSA-65 key is stored under 3 ‖ SHA3-256(domain tag ‖ key)", () => {
    const handle = publicKeyHandleBorsh(kat.publicKey);
    const digest = createHash("sha3-256").update("near:ml-dsa-65-pubkey-hash:v1").update(kat.publicKey.data).digest();
    expect(handle).toEqual(Uint8Array.of(3, ...digest));
    expect(publicKeyHandleLength(kat.publicKey)).toBe(33);
    const text = formatPublicKeyHandle(handle);
    expect(text.startsWith("ml-dsa-65-hash:")).toBe(true);
    expect(formatPublicKeyAsHandle(kat.publicKey)).toBe(text);
    expect(parsePublicKeyHandle(text)).toEqual(handle);
  });

  it("ed25519 and secp256k1 handles are the keys' own borsh bytes and strings", () => {
    const ed = parsePublicKey("ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847");
    const secp = parsePublicKey(
      "secp256k1:5ftgm7wYK5gtVqq1kxMGy7gSudkrfYCbpsjL6sH1nwx2oj5NR2JktohjzB6fbEhhRERQpiwJcpwnQjxtoX3GS3cQ",
    );
    for (const key of [ed, secp]) {
      expect(publicKeyHandleBorsh(key)).toEqual(publicKeyToBorsh(key));
      expect(publicKeyHandleLength(key)).toBe(publicKeyToBorsh(key).length);
      expect(formatPublicKeyAsHandle(key)).toBe(formatPublicKey(key));
      expect(parsePublicKeyHandle(formatPublicKey(key))).toEqual(publicKeyToBorsh(key));
    }
  });

  it("round-trips nearcore's [0xA5; 32] handle and refuses a full ML-DSA-65 key or tag 2", () => {
    const handle = Uint8Array.of(3, ...new Uint8Array(32).fill(0xa5));
    expect(parsePublicKeyHandle(formatPublicKeyHandle(handle))).toEqual(handle);
    expect(() => parsePublicKeyHandle(KAT_PUBLIC_KEY)).toThrow(/use the `ml-dsa-65-hash:` form/);
    expect(() => parsePublicKeyHandle("ml-dsa-65-hash:abc")).toThrow(/32 bytes/);
    expect(() => formatPublicKeyHandle(publicKeyToBorsh(kat.publicKey))).toThrow(/unknown borsh key handle type 2/);
  });
});
