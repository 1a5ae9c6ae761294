// The package's transaction signing against two other implementations: the node's own
// (node:crypto ed25519, the same Borsh codec) byte for byte, near-api-js's Borsh encoding,
// and fast-check round trips through the node's decoder and signature verifier for ed25519
// and secp256k1 keys.

import fc from "fast-check";
import { transactions as nearTransactions, KeyPair as NearKeyPair } from "near-api-js";
import { describe, expect, it } from "vitest";
import { ed25519FromSeed } from "../../src/chain/primitives/ed25519.js";
import { decodeSignedTransaction, encodeSignedTransaction, encodeTransaction } from "../../src/chain/transaction/transactionCodec.js";
import { signTransaction as nodeSignTransaction } from "../../src/chain/transaction/signTransaction.js";
import { verifyTransactionSignature } from "../../src/chain/transaction/verifySignature.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { actions, ed25519KeyPair, keyPairFromString, mlDsa65KeyPair, secp256k1KeyPair, signTransaction } from "../../packages/client/src/jsonrpc/index.js";
import { base64ToBytes, bytesToBase64 } from "../../packages/client/src/encoding/base64.js";

const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const blockHash = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);

describe("@shardkit/client transaction signing", () => {
  it("produces the node's bytes for the same ed25519 transaction", async () => {
    const ours = await signTransaction(
      { signerId: "alice.near", receiverId: "bob.near", nonce: 42n, blockHash, actions: [actions.transfer(10n ** 24n), actions.functionCall("set", { k: "v" }, { gas: 5n, deposit: 1n })] },
      ed25519KeyPair(seed),
    );
    const nodeKey = ed25519FromSeed(seed);
    const node = nodeSignTransaction(ours.transaction.transaction, nodeKey);
    expect(ours.signedTxBase64).toBe(Buffer.from(encodeSignedTransaction(node)).toString("base64"));
    expect(ed25519KeyPair(seed).secretKeyString).toBe(nodeKey.secretKeyString);
    expect(keyPairFromString(nodeKey.secretKeyString).publicKeyString).toBe(nodeKey.publicKeyString);
  });

  it("encodes a transfer as near-api-js does", async () => {
    const pair = ed25519KeyPair(seed);
    const nearKey = NearKeyPair.fromString(pair.secretKeyString as never);
    const nearTx = nearTransactions.createTransaction("alice.near", nearKey.getPublicKey(), "bob.near", 7n, [nearTransactions.transfer(123n)], blockHash);
    const ours = await signTransaction({ signerId: "alice.near", receiverId: "bob.near", nonce: 7n, blockHash, actions: [actions.transfer(123n)] }, pair);
    expect(Buffer.from(encodeTransaction(ours.transaction.transaction)).toString("hex")).toBe(Buffer.from(nearTransactions.encodeTransaction(nearTx)).toString("hex"));
  });

  it("signs what the node decodes and verifies, for ed25519 and secp256k1 keys (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
        fc.string({ maxLength: 20 }),
        async (secret, secp, nonce, deposit, method) => {
          fc.pre(secret.some((b) => b !== 0));
          const signer = secp ? secp256k1KeyPair(secret) : ed25519KeyPair(secret);
          const signed = await signTransaction(
            { signerId: "a.near", receiverId: "b.near", nonce, blockHash, actions: [actions.transfer(deposit), actions.functionCall(method, new Uint8Array([1, 2]))] },
            signer,
          );
          const decoded = decodeSignedTransaction(base64ToBytes(signed.signedTxBase64));
          expect(verifyTransactionSignature(decoded)).toBe(true);
          expect(base58Encode(decoded.hash)).toBe(signed.hash);
          expect(decoded.transaction).toEqual(signed.transaction.transaction);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("signs with an ML-DSA-65 key what the node decodes and verifies; its secret key string round-trips", async () => {
    const pair = mlDsa65KeyPair(seed);
    expect(pair.publicKeyString).toMatch(/^ml-dsa-65:/);
    expect(pair.secretKeyString).toMatch(/^ml-dsa-65:/);
    const again = keyPairFromString(pair.secretKeyString);
    expect(again.publicKeyString).toBe(pair.publicKeyString);
    const signed = await signTransaction({ signerId: "a.near", receiverId: "b.near", nonce: 1n, blockHash, actions: [actions.transfer(5n)] }, again);
    const decoded = decodeSignedTransaction(base64ToBytes(signed.signedTxBase64));
    expect(decoded.signature.data.length).toBe(3309);
    expect(verifyTransactionSignature(decoded)).toBe(true);
    expect(base58Encode(decoded.hash)).toBe(signed.hash);
  });

  it("base64 matches Buffer's for any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        const text = bytesToBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect(base64ToBytes(text)).toEqual(bytes);
      }),
      { numRuns: 50 },
    );
  });

  it("refuses malformed secret keys", () => {
    expect(() => keyPairFromString("ed25519:abc")).toThrow(/unsupported secret key/);
    expect(() => keyPairFromString("rsa:" + base58Encode(seed))).toThrow(/unsupported secret key/);
    const other = ed25519KeyPair(new Uint8Array(32).fill(9)).publicKey.data;
    const mismatched = new Uint8Array(64);
    mismatched.set(seed, 0);
    mismatched.set(other, 32);
    expect(() => keyPairFromString(`ed25519:${base58Encode(mismatched)}`)).toThrow(/does not match/);
    expect(() => secp256k1KeyPair(new Uint8Array(32))).toThrow(RangeError);
  });
});
