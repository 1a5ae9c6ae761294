import { describe, expect, it } from "vitest";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { base64Decode, base64Encode } from "../../../src/chain/primitives/base64.js";
import { ed25519FromSeed } from "../../../src/chain/primitives/ed25519.js";
import { KeyType } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import {
  decodeAction,
  decodeSignedTransaction,
  encodeAction,
  encodeSignedTransaction,
  secp256k1PublicKeyOf,
  secp256k1Sign,
  toActionView,
  toSignedTransactionView,
  verifySignature,
  verifyTransactionSignature,
} from "../../../src/chain/transaction/index.js";
import { hex } from "./bytes.js";

/** near/docs docs/api/rpc/transactions.md, `broadcast_tx_async` example (testnet transfer). */
const DOCS_TX =
  "DgAAAHNlbmRlci50ZXN0bmV0AOrmAai64SZOv9e/naX4W15pJx0GAap35wTT1T/DwcbbDwAAAAAAAAAQAAAAcmVjZWl2ZXIudGVzdG5ldNMnL7URB1cxPOu3G8jTqlEwlcasagIbKlAJlF5ywVFLAQAAAAMAAACh7czOG8LTAAAAAAAAAGQcOG03xVSFQFjoagOb4NBBqWhERnnz45LY4+52JgZhm1iQKz7qAdPByrGFDQhQ2Mfga8RlbysuQ8D8LlA6bQE=";

describe("golden: near docs signed transfer", () => {
  const bytes = base64Decode(DOCS_TX);
  const stx = decodeSignedTransaction(bytes);

  it("decodes to the documented fields", () => {
    expect(bytes.length).toBe(197);
    const tx = stx.transaction;
    expect(tx.version).toBe(0);
    expect(tx.signerId).toBe("sender.testnet");
    expect(tx.receiverId).toBe("receiver.testnet");
    expect(tx.version === 0 && tx.nonce).toBe(15n);
    expect(tx.publicKey.keyType).toBe(KeyType.ED25519);
    expect(base58Encode(tx.publicKey.data)).toBe("Gowpa4kXNyTMRKgt5W7147pmcc2PxiFic8UHW9rsNvJ6");
    expect(tx.actions).toEqual([{ type: "Transfer", deposit: 10n ** 24n }]);
    expect(stx.signature.keyType).toBe(KeyType.ED25519);
    expect(stx.size).toBe(197 - 65);
  });

  it("hashes to the documented tx hash", () => {
    expect(base58Encode(stx.hash)).toBe("6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm");
  });

  it("re-encodes byte for byte", () => {
    expect(base64Encode(encodeSignedTransaction(stx))).toBe(DOCS_TX);
  });

  it("carries a valid signature, and a flipped hash bit breaks it", () => {
    expect(verifyTransactionSignature(stx)).toBe(true);
    const forged = stx.hash.slice();
    forged[0]! ^= 1;
    expect(verifyTransactionSignature({ ...stx, hash: forged })).toBe(false);
  });

  it("renders the SignedTransactionView as nearcore does", () => {
    expect(toSignedTransactionView(stx)).toEqual({
      signer_id: "sender.testnet",
      public_key: "ed25519:Gowpa4kXNyTMRKgt5W7147pmcc2PxiFic8UHW9rsNvJ6",
      nonce: 15,
      receiver_id: "receiver.testnet",
      actions: [{ Transfer: { deposit: "1000000000000000000000000" } }],
      priority_fee: 0,
      signature: `ed25519:${base58Encode(stx.signature.data)}`,
      hash: "6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm",
    });
  });
});

describe("golden: nearcore delegate.rs DELEGATE_ACTION_HEX", () => {
  // core/primitives/src/action/delegate.rs test: Delegate{sender "aaa", receiver "bbb",
  // [CreateAccount], nonce 1, max_block_height 2, empty ed25519 key and signature}.
  const HEX =
    "0803000000616161030000006262620100000000010000000000000002000000000000" +
    "0000000000000000000000000000000000000000000000000000000000000000000000" +
    "0000000000000000000000000000000000000000000000000000000000000000000000" +
    "0000000000000000000000000000000000000000000000000000000000";

  it("decodes, re-encodes and renders", () => {
    const bytes = new Uint8Array(Buffer.from(HEX, "hex"));
    const action = decodeAction(bytes);
    expect(action).toEqual({
      type: "Delegate",
      delegateAction: {
        senderId: "aaa",
        receiverId: "bbb",
        actions: [{ type: "CreateAccount" }],
        nonce: 1n,
        maxBlockHeight: 2n,
        publicKey: { keyType: KeyType.ED25519, data: new Uint8Array(32) },
      },
      signature: { keyType: KeyType.ED25519, data: new Uint8Array(64) },
    });
    expect(hex(encodeAction(action))).toBe(HEX);
    // Inside a delegate the actions keep nearcore's serde `Action` form, not ActionView.
    expect(toActionView(action)).toEqual({
      Delegate: {
        delegate_action: {
          sender_id: "aaa",
          receiver_id: "bbb",
          actions: [{ CreateAccount: {} }],
          nonce: 1,
          max_block_height: 2,
          public_key: "ed25519:11111111111111111111111111111111",
        },
        signature: `ed25519:${"1".repeat(64)}`,
      },
    });
  });
});

describe("golden: near-crypto signature.rs test vectors", () => {
  const message = new TextEncoder().encode("123");

  it('ed25519: seed → key, and the deterministic signature of b"123"', () => {
    const secret = base58Decode(
      "3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3",
    );
    const pair = ed25519FromSeed(secret.slice(0, 32));
    expect(pair.publicKeyString).toBe("ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847");
    const sig = pair.sign(message);
    expect(base58Encode(sig)).toBe(
      "3s1dvZdQtcAjBksMHFrysqvF63wnyMHPA4owNQmCJZ2EBakZEKdtMsLqrHdKWQjJbSRN6kRknN2WdwSBLWGCokXj",
    );
    expect(verifySignature(message, { keyType: KeyType.ED25519, data: sig }, pair.publicKey)).toBe(true);
  });

  it('secp256k1: key derivation, RFC 6979 signature of sha256("123") and its verification', () => {
    const secret = base58Decode("X4ETFKtQkSGVoZEnkn7bZ3LyajJaK2b3eweXaKmynGx");
    const pub = secp256k1PublicKeyOf(secret);
    expect(base58Encode(pub)).toBe(
      "5ftgm7wYK5gtVqq1kxMGy7gSudkrfYCbpsjL6sH1nwx2oj5NR2JktohjzB6fbEhhRERQpiwJcpwnQjxtoX3GS3cQ",
    );
    const hash = sha256(message);
    const expected = base58Decode(
      "5N5CB9H1dmB9yraLGCo4ZCQTcF24zj4v2NT14MHdH3aVhRoRXrX3AhprHr2w6iXNBZDmjMS1Ntzjzq8Bv6iBvwth6",
    );
    expect(hex(secp256k1Sign(hash, secret))).toBe(hex(expected));
    const key = { keyType: KeyType.SECP256K1, data: pub };
    expect(verifySignature(hash, { keyType: KeyType.SECP256K1, data: expected }, key)).toBe(true);
    expect(
      verifySignature(
        sha256(new TextEncoder().encode("124")),
        { keyType: KeyType.SECP256K1, data: expected },
        key,
      ),
    ).toBe(false);
  });
});
