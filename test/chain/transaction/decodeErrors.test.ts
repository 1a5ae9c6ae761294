import { describe, expect, it } from "vitest";
import { base64Decode } from "../../../src/chain/primitives/base64.js";
import {
  TransactionDecodeError,
  decodeAction,
  decodeSignedTransaction,
  encodeAction,
} from "../../../src/chain/transaction/index.js";
import { cat, fill, str, u128, u16, u32, u64 } from "./bytes.js";

const ED_BORSH = cat([0], fill(32, 0x11));
const HASH = fill(32, 0xab);
const ZERO_SIG = cat([0], fill(64, 0));

/** A V0 signed transaction around the given action bytes. */
function signedTx(actionCount: number, actions: Uint8Array, signature: Uint8Array = ZERO_SIG): Uint8Array {
  return cat(
    str("alice.near"),
    ED_BORSH,
    u64(1),
    str("bob.near"),
    HASH,
    u32(actionCount),
    actions,
    signature,
  );
}

/** A Delegate action (tag 8) wrapping the given inner action bytes. */
function delegate(innerCount: number, inner: Uint8Array): Uint8Array {
  return cat(
    [8],
    str("alice.near"),
    str("bob.near"),
    u32(innerCount),
    inner,
    u64(1),
    u64(2),
    ED_BORSH,
    ZERO_SIG,
  );
}
/** A DelegateV2 action (tag 14) wrapping the given inner action bytes. */
function delegateV2(innerCount: number, inner: Uint8Array, payloadTag = 0): Uint8Array {
  return cat(
    [14],
    [payloadTag],
    str("alice.near"),
    str("bob.near"),
    u32(innerCount),
    inner,
    [0],
    u64(1),
    u64(2),
    ED_BORSH,
    ZERO_SIG,
  );
}

function expectDecodeError(run: () => unknown, reason: RegExp): TransactionDecodeError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(TransactionDecodeError);
    expect((e as TransactionDecodeError).reason).toMatch(reason);
    return e as TransactionDecodeError;
  }
  throw new Error("expected a TransactionDecodeError");
}

describe("malformed signed transactions → TransactionDecodeError", () => {
  it.each([
    ["trailing byte", cat(signedTx(1, cat([0])), [0]), /1 trailing bytes/],
    ["unknown action tag 15", signedTx(1, cat([15])), /unknown Action tag 15/],
    ["unknown action tag 255", signedTx(1, cat([255])), /unknown Action tag 255/],
    ["action count beyond the data", signedTx(0xffffffff, cat([0])), /actions: declares 4294967295 items/],
    [
      "code length beyond the data",
      signedTx(1, cat([1], u32(0xffffffff))),
      /DeployContract.code: length 4294967295 exceeds/,
    ],
    [
      "invalid UTF-8 method name",
      signedTx(1, cat([2], u32(2), "c328", u32(0), u64(0), u128(0))),
      /method_name: invalid UTF-8/,
    ],
    [
      "upper-case beneficiary",
      signedTx(1, cat([7], str("Bob.near"))),
      /beneficiary_id: invalid account id "Bob.near"/,
    ],
    ["account id too long", signedTx(1, cat([7], str("a".repeat(65)))), /invalid account id/],
    [
      "Option tag 2 in allowance",
      signedTx(1, cat([5], ED_BORSH, u64(0), [0], [2])),
      /allowance: invalid Option tag 2/,
    ],
    [
      "unknown permission tag 4",
      signedTx(1, cat([5], ED_BORSH, u64(0), [4])),
      /unknown AccessKeyPermission tag 4/,
    ],
    [
      "method_names count beyond the data",
      signedTx(1, cat([5], ED_BORSH, u64(0), [0], [0], str("x"), u32(1000))),
      /method_names: declares 1000 items/,
    ],
    [
      "key type 3 (nearcore's ML-DSA-65 key handle, never a PublicKey)",
      signedTx(1, cat([6], [3], fill(32, 0))),
      /unsupported key type 3/,
    ],
    [
      "an ML-DSA-65 key (type 2) cut short",
      signedTx(1, cat([6], [2], fill(32, 0))),
      /DeleteKey.public_key: unexpected end of data \(need 1952 bytes/,
    ],
    ["unknown deploy mode 2", signedTx(1, cat([9], u32(0), [2])), /unknown GlobalContractDeployMode tag 2/],
    [
      "unknown GlobalContractIdentifier tag 2",
      signedTx(1, cat([10], [2])),
      /unknown GlobalContractIdentifier tag 2/,
    ],
    [
      "unknown state init version 1",
      signedTx(1, cat([11], [1])),
      /unknown DeterministicAccountStateInit tag 1/,
    ],
    [
      "state init keys out of order",
      signedTx(1, cat([11], [0], [0], HASH, u32(2), u32(1), [2], u32(0), u32(1), [1], u32(0), u128(0))),
      /strictly ascending/,
    ],
    [
      "state init duplicate keys",
      signedTx(1, cat([11], [0], [0], HASH, u32(2), u32(1), [1], u32(0), u32(1), [1], u32(0), u128(0))),
      /strictly ascending/,
    ],
    [
      "state init entry count beyond the data",
      signedTx(1, cat([11], [0], [0], HASH, u32(100))),
      /state_init.data: declares 100 items/,
    ],
    [
      "Delegate inside Delegate",
      signedTx(1, delegate(1, delegate(0, cat()))),
      /DelegateAction mustn't contain a nested one/,
    ],
    [
      "DelegateV2 inside Delegate",
      signedTx(1, delegate(1, delegateV2(0, cat()))),
      /mustn't contain a nested one/,
    ],
    [
      "Delegate inside DelegateV2",
      signedTx(1, delegateV2(1, delegate(0, cat()))),
      /mustn't contain a nested one/,
    ],
    [
      "unknown delegate payload version 1",
      signedTx(1, delegateV2(0, cat(), 1)),
      /unknown VersionedDelegateActionPayload tag 1/,
    ],
    [
      "signature of unknown type",
      signedTx(1, cat([0]), cat([7], fill(64, 0))),
      /signature: unsupported signature key type 7/,
    ],
    [
      "ed25519 signature failing nearcore's sanity check",
      signedTx(1, cat([0]), cat([0], fill(63, 0), [0x20])),
      /malformed ed25519 signature/,
    ],
    ["missing signature", signedTx(1, cat([0]), cat()), /signature: unexpected end of data/],
  ])("%s", (_name, bytes, reason) => {
    expectDecodeError(() => decodeSignedTransaction(bytes), reason);
  });

  it("reports the byte offset where decoding stopped", () => {
    const bytes = signedTx(1, cat([15]));
    const err = expectDecodeError(() => decodeSignedTransaction(bytes), /unknown Action tag/);
    expect(err.offset).toBe(bytes.length - 65 - 1);
    expect(err.message).toBe(`action: unknown Action tag 15 (at byte ${err.offset})`);
  });

  it("every strict prefix of a valid transaction is refused", () => {
    const full = base64Decode(
      "DgAAAHNlbmRlci50ZXN0bmV0AOrmAai64SZOv9e/naX4W15pJx0GAap35wTT1T/DwcbbDwAAAAAAAAAQAAAAcmVjZWl2ZXIudGVzdG5ldNMnL7URB1cxPOu3G8jTqlEwlcasagIbKlAJlF5ywVFLAQAAAAMAAACh7czOG8LTAAAAAAAAAGQcOG03xVSFQFjoagOb4NBBqWhERnnz45LY4+52JgZhm1iQKz7qAdPByrGFDQhQ2Mfga8RlbysuQ8D8LlA6bQE=",
    );
    decodeSignedTransaction(full);
    for (let n = 0; n < full.length; n++) {
      expectDecodeError(
        () => decodeSignedTransaction(full.subarray(0, n)),
        /unexpected end of data|exceeds|declares|invalid/,
      );
    }
  });
});

describe("TransactionNonce / NonceMode tags in V1", () => {
  const head = cat([1], str("alice.near"), ED_BORSH);
  it.each([
    ["unknown TransactionNonce tag 2", cat(head, [2], u64(1)), /nonce: unknown TransactionNonce tag 2/],
    [
      "unknown NonceMode tag 2",
      cat(head, [0], u64(1), str("bob.near"), HASH, u32(0), [2], ZERO_SIG),
      /nonce_mode: unknown NonceMode tag 2/,
    ],
    ["gas-key nonce cut short", cat(head, [1], u64(1), [7]), /nonce: unexpected end of data/],
  ])("%s", (_name, bytes, reason) => {
    expectDecodeError(() => decodeSignedTransaction(bytes), reason);
  });
});

describe("strings keep their exact bytes", () => {
  it("a leading BOM in a method name survives decode → encode", () => {
    const bytes = cat([2], str("\uFEFFgo"), u32(0), u64(1), u128(0));
    const action = decodeAction(bytes);
    expect(action).toMatchObject({ type: "FunctionCall", methodName: "\uFEFFgo" });
    expect(encodeAction(action)).toEqual(bytes);
  });

  it("u16 and u128 extremes round-trip", () => {
    const bytes = cat([5], ED_BORSH, u64(2n ** 64n - 1n), [3], u128(2n ** 128n - 1n), u16(0xffff));
    expect(encodeAction(decodeAction(bytes))).toEqual(bytes);
  });
});
