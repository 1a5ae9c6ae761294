import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import {
  TransactionDecodeError,
  decodeAction,
  decodeSignedTransaction,
  decodeTransaction,
  encodeAction,
  encodeSignedTransaction,
  encodeTransaction,
  toActionView,
  toSignedTransactionView,
  transactionHash,
} from "../../../src/chain/transaction/index.js";
import { action, signedTransaction, transaction } from "./arbitraries.js";

/** Decodes, accepting only success or a TransactionDecodeError; on success the input must be canonical. */
function decodeOrTypedError(bytes: Uint8Array): void {
  let decoded;
  try {
    decoded = decodeSignedTransaction(bytes);
  } catch (e) {
    if (!(e instanceof TransactionDecodeError)) throw e;
    return;
  }
  // Whatever is accepted re-encodes to exactly the bytes received, so hashing the received
  // bytes equals hashing nearcore's re-serialization.
  expect(Buffer.from(encodeSignedTransaction(decoded)).equals(Buffer.from(bytes))).toBe(true);
  JSON.stringify(toSignedTransactionView(decoded));
}

describe("round trips (fast-check)", () => {
  it("decode(encode(action)) deep-equals the action, and encoding is stable", () => {
    fc.assert(
      fc.property(action, (a) => {
        const bytes = encodeAction(a);
        const back = decodeAction(bytes);
        expect(back).toEqual(a);
        expect(encodeAction(back)).toEqual(bytes);
        JSON.stringify(toActionView(a));
      }),
      { numRuns: 400 },
    );
  });

  it("decode(encode(tx)) deep-equals the transaction", () => {
    fc.assert(
      fc.property(transaction, (tx) => {
        const bytes = encodeTransaction(tx);
        expect(decodeTransaction(bytes)).toEqual(tx);
        expect(transactionHash(tx)).toEqual(sha256(bytes));
      }),
      { numRuns: 200 },
    );
  });

  it("signed transactions: decode(encode(stx)) gives it back with hash = sha256(tx bytes)", () => {
    fc.assert(
      fc.property(signedTransaction, (stx) => {
        const bytes = encodeSignedTransaction(stx);
        const decoded = decodeSignedTransaction(bytes);
        expect({ transaction: decoded.transaction, signature: decoded.signature }).toEqual(stx);
        const txBytes = encodeTransaction(stx.transaction);
        expect(decoded.size).toBe(txBytes.length);
        expect(decoded.hash).toEqual(sha256(txBytes));
        expect(encodeSignedTransaction(decoded)).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });
});

describe("fuzz: hostile bytes only ever raise TransactionDecodeError", () => {
  it("random byte strings", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), decodeOrTypedError), { numRuns: 1500 });
  });

  it("random bytes behind a valid V0 / V1 header (exercises the action decoders)", () => {
    const headers = [
      // V0: signer "alice.near", ed25519 key, nonce, receiver "bob.near", block hash
      "0a000000616c6963652e6e65617200" +
        "11".repeat(32) +
        "0100000000000000" +
        "08000000626f622e6e656172" +
        "ab".repeat(32),
      "010a000000616c6963652e6e65617200" +
        "11".repeat(32) +
        "000100000000000000" +
        "08000000626f622e6e656172" +
        "ab".repeat(32),
    ].map((h) => new Uint8Array(Buffer.from(h, "hex")));
    fc.assert(
      fc.property(
        fc.constantFrom(...headers),
        fc.integer({ min: 0, max: 4 }),
        fc.uint8Array({ maxLength: 300 }),
        (head, count, tail) => {
          decodeOrTypedError(Buffer.concat([head, Uint8Array.of(count, 0, 0, 0), tail]));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("valid encodings with bytes flipped, cut or inserted", () => {
    const mutated = fc
      .tuple(
        signedTransaction,
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom("flip", "cut", "insert"),
      )
      .map(([stx, where, value, how]) => {
        const bytes = encodeSignedTransaction(stx);
        const i = where % bytes.length;
        if (how === "cut") return bytes.subarray(0, i);
        if (how === "insert")
          return Buffer.concat([bytes.subarray(0, i), Uint8Array.of(value), bytes.subarray(i)]);
        const out = bytes.slice();
        out[i] = value;
        return out;
      });
    fc.assert(fc.property(mutated, decodeOrTypedError), { numRuns: 500 });
  });
});
