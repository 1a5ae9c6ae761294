import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { ed25519FromSeed } from "../../../src/chain/primitives/ed25519.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import {
  TransactionDecodeError,
  decodeSignedTransaction,
  decodeTransaction,
  encodeSignedTransaction,
  encodeTransaction,
  secp256k1FromSecret,
  signTransaction,
  toSignedTransactionView,
  transactionHash,
  verifyTransactionSignature,
  type Transaction,
  type TransactionV1,
} from "../../../src/chain/transaction/index.js";
import { cat, fill, hex, str, u128, u16, u32, u64 } from "./bytes.js";

const signer = ed25519FromSeed(fill(32, 5));
const SIGNER_BORSH = cat([0], signer.publicKey.data);
const HASH = fill(32, 0xcd);

const v1: TransactionV1 = {
  version: 1,
  signerId: "alice.near",
  publicKey: signer.publicKey,
  nonce: { kind: "GasKeyNonce", nonce: 5n, nonceIndex: 2 },
  receiverId: "bob.near",
  blockHash: HASH,
  actions: [{ type: "Transfer", deposit: 1n }],
  nonceMode: "Strict",
};
// prettier-ignore
const v1Bytes = cat(
  [1], // version tag
  str("alice.near"),
  SIGNER_BORSH,
  [1], u64(5), u16(2), // TransactionNonce::GasKeyNonce
  str("bob.near"),
  HASH,
  u32(1), [3], u128(1),
  [1], // NonceMode::Strict
);

describe("TransactionV1", () => {
  it("decodes the hand-built tagged bytes and encodes them back", () => {
    expect(decodeTransaction(v1Bytes)).toEqual(v1);
    expect(hex(encodeTransaction(v1))).toBe(hex(v1Bytes));
  });

  it("hashes the tagged bytes (tag included)", () => {
    expect(hex(transactionHash(v1))).toBe(hex(sha256(v1Bytes)));
    expect(hex(transactionHash(v1))).not.toBe(hex(sha256(v1Bytes.subarray(1))));
  });

  it("signs, decodes as a SignedTransaction, verifies and renders nonce_index / nonce_mode", () => {
    const stx = signTransaction(v1, signer);
    const bytes = encodeSignedTransaction(stx);
    expect(hex(bytes)).toBe(hex(cat(v1Bytes, [0], stx.signature.data)));
    const decoded = decodeSignedTransaction(bytes);
    expect(decoded.transaction).toEqual(v1);
    expect(decoded.size).toBe(v1Bytes.length);
    expect(verifyTransactionSignature(decoded)).toBe(true);
    expect(toSignedTransactionView(decoded)).toEqual({
      signer_id: "alice.near",
      public_key: signer.publicKeyString,
      nonce: 5,
      receiver_id: "bob.near",
      actions: [{ Transfer: { deposit: "1" } }],
      priority_fee: 0,
      signature: `ed25519:${base58Encode(stx.signature.data)}`,
      hash: base58Encode(sha256(v1Bytes)),
      nonce_index: 2,
      nonce_mode: "strict",
    });
  });

  it("a plain nonce with Monotonic mode: no nonce_index in the view", () => {
    const tx: Transaction = { ...v1, nonce: { kind: "Nonce", nonce: 6n }, nonceMode: "Monotonic" };
    const bytes = encodeTransaction(tx);
    expect(hex(bytes)).toBe(
      hex(
        cat(
          [1],
          str("alice.near"),
          SIGNER_BORSH,
          [0],
          u64(6),
          str("bob.near"),
          HASH,
          u32(1),
          [3],
          u128(1),
          [0],
        ),
      ),
    );
    const view = toSignedTransactionView(
      decodeSignedTransaction(encodeSignedTransaction(signTransaction(tx, signer))),
    );
    expect(view.nonce).toBe(6);
    expect(view.nonce_mode).toBe("monotonic");
    expect("nonce_index" in view).toBe(false);
  });
});

describe("secp256k1-signed transaction end to end", () => {
  it("signs, verifies, and rejects a tampered transaction", () => {
    const key = secp256k1FromSecret(fill(32, 0x42));
    const tx: Transaction = {
      version: 0,
      signerId: "carol.near",
      publicKey: key.publicKey,
      nonce: 1n,
      receiverId: "carol.near",
      blockHash: HASH,
      actions: [{ type: "CreateAccount" }],
    };
    const bytes = encodeSignedTransaction(signTransaction(tx, key));
    const decoded = decodeSignedTransaction(bytes);
    expect(decoded.signature.data.length).toBe(65);
    expect(verifyTransactionSignature(decoded)).toBe(true);
    expect(toSignedTransactionView(decoded).public_key.startsWith("secp256k1:")).toBe(true);
    const tampered = bytes.slice();
    // Signature key type 1 → 0: the 65 secp256k1 bytes read as ed25519 leave one over
    // (unless the 64th byte already fails the ed25519 sanity check).
    tampered[tampered.length - 66]! ^= 1;
    expect(() => decodeSignedTransaction(tampered)).toThrow(/1 trailing bytes|malformed ed25519 signature/);
    const otherNonce = encodeSignedTransaction({
      transaction: { ...tx, nonce: 2n },
      signature: decoded.signature,
    });
    expect(verifyTransactionSignature(decodeSignedTransaction(otherNonce))).toBe(false);
  });
});

describe("V0 / V1 discrimination (nearcore Transaction::deserialize_reader)", () => {
  const v0 = cat(str("alice.near"), SIGNER_BORSH, u64(1), str("bob.near"), HASH, u32(0));
  it.each([
    ["byte[1] == 0 → V0", v0, { version: 0 }],
    ["byte[0] == 1, byte[1] != 0 → V1", v1Bytes, { version: 1 }],
  ])("%s", (_name, bytes, shape) => {
    expect(decodeTransaction(bytes)).toMatchObject(shape);
  });

  it.each([
    ["empty input", new Uint8Array(), /unexpected end of data/],
    ["one byte", Uint8Array.of(10), /unexpected end of data/],
    ["byte[0] == 2, byte[1] != 0", cat([2], v1Bytes.subarray(1)), /invalid transaction version tag: 2/],
    ["byte[0] == 0xff, byte[1] != 0", cat([0xff, 0x0a]), /invalid transaction version tag: 255/],
    // byte[1] == 0 wins even when byte[0] == 1: read as V0 with a 1-byte signer id.
    ["byte[0] == 1, byte[1] == 0", cat(u32(1), "61", SIGNER_BORSH), /signer_id: invalid account id "a"/],
  ])("refuses %s", (_name, bytes, message) => {
    expect(() => decodeTransaction(bytes)).toThrow(TransactionDecodeError);
    expect(() => decodeTransaction(bytes)).toThrow(message);
  });
});
