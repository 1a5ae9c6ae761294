import { verify, createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base58Decode } from "@shardkit/primitives/base58";
import { ed25519FromSeed } from "../../../src/chain/primitives/ed25519.js";
import {
  KeyType,
  PublicKeyError,
  formatPublicKey,
  parsePublicKey,
  publicKeyFromBorsh,
  publicKeyToBorsh,
} from "@shardkit/primitives/publicKey";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("PublicKey", () => {
  const ed = "ed25519:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp";

  it("parses and formats ed25519 keys; borsh = type byte ‖ data", () => {
    const k = parsePublicKey(ed);
    expect(k.keyType).toBe(KeyType.ED25519);
    expect(k.data.length).toBe(32);
    expect(formatPublicKey(k)).toBe(ed);
    const borsh = publicKeyToBorsh(k);
    expect(borsh.length).toBe(33);
    expect(borsh[0]).toBe(0);
    expect(publicKeyFromBorsh(borsh)).toEqual({ key: k, read: 33 });
  });

  it("parses secp256k1 keys (64 bytes, borsh 65)", () => {
    const data = new Uint8Array(64).map((_, i) => i + 1);
    const text = formatPublicKey({ keyType: KeyType.SECP256K1, data });
    expect(text.startsWith("secp256k1:")).toBe(true);
    const k = parsePublicKey(text);
    expect(k.data).toEqual(data);
    expect(publicKeyToBorsh(k)[0]).toBe(1);
    expect(publicKeyToBorsh(k).length).toBe(65);
  });

  it("reads a key without prefix as ed25519 and the type case-insensitively, as nearcore does", () => {
    expect(parsePublicKey(ed.slice("ed25519:".length))).toEqual(parsePublicKey(ed));
    expect(parsePublicKey(`ED25519:${ed.slice(8)}`)).toEqual(parsePublicKey(ed));
  });

  it.each([
    ["rsa:abc", /unknown key type/],
    ["ed25519:", /32 bytes, got 0/],
    ["ed25519:1111", /32 bytes/],
    ["secp256k1:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp", /64 bytes/],
    ["ed25519:0OIl", /base58/],
  ])("rejects %j", (text, msg) => {
    expect(() => parsePublicKey(text)).toThrow(PublicKeyError);
    expect(() => parsePublicKey(text)).toThrow(msg);
  });

  it("rejects bad borsh", () => {
    expect(() => publicKeyFromBorsh(Uint8Array.of(7))).toThrow(PublicKeyError);
    expect(() => publicKeyFromBorsh(Uint8Array.of(0, 1, 2))).toThrow(/truncated/);
  });
});

describe("ed25519 from seed", () => {
  it("matches RFC 8032 test 1", () => {
    const seed = new Uint8Array(Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex"));
    const kp = ed25519FromSeed(seed);
    expect(hex(kp.publicKey.data)).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    expect(hex(kp.sign(new Uint8Array()))).toBe(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    );
    // NEAR secret key string: base58(seed ‖ public key).
    const secret = base58Decode(kp.secretKeyString.slice("ed25519:".length));
    expect(hex(secret)).toBe(hex(seed) + hex(kp.publicKey.data));
  });

  it("derives dev keys from sha256('shardkit-dev:' + account)", () => {
    const kp = devKeyPair("alice.test.near");
    expect(hex(base58Decode(kp.secretKeyString.slice(8)).slice(0, 32))).toBe(
      hex(sha256(new TextEncoder().encode("shardkit-dev:alice.test.near"))),
    );
    expect(kp.publicKeyString).toBe("ed25519:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp");
    const msg = sha256(new TextEncoder().encode("hello"));
    const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), kp.publicKey.data]);
    expect(verify(null, msg, createPublicKey({ key: spki, format: "der", type: "spki" }), kp.sign(msg))).toBe(true);
  });

  it("rejects seeds that are not 32 bytes", () => {
    expect(() => ed25519FromSeed(new Uint8Array(31))).toThrow(RangeError);
  });
});
