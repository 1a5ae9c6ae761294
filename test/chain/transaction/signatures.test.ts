import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ed25519FromSeed } from "../../../src/chain/primitives/ed25519.js";
import { KeyType } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import {
  secp256k1FromSecret,
  secp256k1Sign,
  secp256k1Verify,
  verifySignature,
} from "../../../src/chain/transaction/index.js";
import { cat, fill, hex } from "./bytes.js";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const SECP_SPKI_PREFIX = "3056301006072a8648ce3d020106052b8104000a03420004";

const big = (b: Uint8Array) => BigInt(`0x${hex(b)}`);
const be32 = (v: bigint) => new Uint8Array(Buffer.from(v.toString(16).padStart(64, "0"), "hex"));

/** A secp256k1 key made by OpenSSL, as NEAR's 64-byte x ‖ y. */
function opensslSecpKey() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "secp256k1" });
  const spki = publicKey.export({ format: "der", type: "spki" });
  return { privateKey, publicKey, raw: new Uint8Array(spki.subarray(spki.length - 64)) };
}

describe("ed25519 verification", () => {
  const pair = ed25519FromSeed(fill(32, 1));
  const hash = sha256(new TextEncoder().encode("tx"));
  const sig = { keyType: KeyType.ED25519, data: pair.sign(hash) };

  it("accepts the right signature and rejects any other message, key or type", () => {
    expect(verifySignature(hash, sig, pair.publicKey)).toBe(true);
    expect(verifySignature(sha256(hash), sig, pair.publicKey)).toBe(false);
    expect(verifySignature(hash, sig, ed25519FromSeed(fill(32, 2)).publicKey)).toBe(false);
    expect(
      verifySignature(hash, { keyType: KeyType.SECP256K1, data: cat(sig.data, [0]) }, pair.publicKey),
    ).toBe(false);
  });

  it("returns false (never throws) for junk keys and signatures", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (key, s) => {
          expect(
            verifySignature(
              hash,
              { keyType: KeyType.ED25519, data: s },
              { keyType: KeyType.ED25519, data: key },
            ),
          ).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps working past the key cache bound", () => {
    for (let i = 0; i < 4200; i++) {
      const key = fill(32, 0);
      key[0] = i & 0xff;
      key[1] = i >> 8;
      verifySignature(hash, sig, { keyType: KeyType.ED25519, data: key });
    }
    expect(verifySignature(hash, sig, pair.publicKey)).toBe(true);
  });
});

describe("secp256k1 (bigint) against OpenSSL", () => {
  it("verifies OpenSSL signatures over sha256(m) once s is normalized low", () => {
    for (let i = 0; i < 5; i++) {
      const key = opensslSecpKey();
      const message = new TextEncoder().encode(`message ${i}`);
      const der = sign("sha256", message, { key: key.privateKey, dsaEncoding: "ieee-p1363" });
      const r = big(der.subarray(0, 32));
      let s = big(der.subarray(32));
      const high = s > N >> 1n;
      const raw = cat(be32(r), be32(s), [0]);
      // libsecp256k1 (hence nearcore) refuses high-s signatures; OpenSSL emits either.
      expect(secp256k1Verify(sha256(message), raw, key.raw)).toBe(!high);
      if (high) s = N - s;
      expect(secp256k1Verify(sha256(message), cat(be32(r), be32(s), [1]), key.raw)).toBe(true);
    }
  });

  it("its signatures verify under OpenSSL", () => {
    const pair = secp256k1FromSecret(fill(32, 9));
    const spki = createPublicKey({
      key: Buffer.from(SECP_SPKI_PREFIX + hex(pair.publicKey.data), "hex"),
      format: "der",
      type: "spki",
    });
    for (let i = 0; i < 5; i++) {
      const message = new TextEncoder().encode(`m${i}`);
      const sig = pair.sign(sha256(message));
      expect(sig.length).toBe(65);
      expect(verify("sha256", message, { key: spki, dsaEncoding: "ieee-p1363" }, sig.subarray(0, 64))).toBe(
        true,
      );
      expect(big(sig.subarray(32, 64)) <= N >> 1n).toBe(true);
    }
  });

  it.each([
    ["recovery id 4", (s: Uint8Array) => s.set([4], 64)],
    ["r = 0", (s: Uint8Array) => s.set(fill(32, 0), 0)],
    ["r = n", (s: Uint8Array) => s.set(be32(N), 0)],
    ["s = 0", (s: Uint8Array) => s.set(fill(32, 0), 32)],
    ["high s (n - s)", (s: Uint8Array) => s.set(be32(N - big(s.subarray(32, 64))), 32)],
  ])("rejects %s", (_name, mutate) => {
    const secret = fill(32, 3);
    const pair = secp256k1FromSecret(secret);
    const hash = sha256(Uint8Array.of(1));
    const sig = secp256k1Sign(hash, secret);
    expect(secp256k1Verify(hash, sig, pair.publicKey.data)).toBe(true);
    mutate(sig);
    expect(secp256k1Verify(hash, sig, pair.publicKey.data)).toBe(false);
  });

  it("like nearcore, only range-checks v (a flipped recovery bit still verifies)", () => {
    const secret = fill(32, 3);
    const hash = sha256(Uint8Array.of(2));
    const sig = secp256k1Sign(hash, secret);
    sig[64]! ^= 1;
    expect(secp256k1Verify(hash, sig, secp256k1FromSecret(secret).publicKey.data)).toBe(true);
  });

  it("rejects a public key that is not on the curve, without throwing", () => {
    const secret = fill(32, 3);
    const hash = sha256(Uint8Array.of(1));
    const pub = secp256k1FromSecret(secret).publicKey.data.slice();
    pub[63]! ^= 1;
    expect(secp256k1Verify(hash, secp256k1Sign(hash, secret), pub)).toBe(false);
    expect(secp256k1Verify(hash, secp256k1Sign(hash, secret), fill(64, 0xff))).toBe(false);
  });

  it("refuses secrets outside [1, n-1]", () => {
    expect(() => secp256k1FromSecret(fill(32, 0))).toThrow(RangeError);
    expect(() => secp256k1FromSecret(be32(N))).toThrow(RangeError);
  });
});
