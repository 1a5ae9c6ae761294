import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidAccountId } from "@shardkit/primitives/accountId";
import { accountIdParseError } from "../../../src/server/jsonrpc/accountIdParseError.js";

describe("accountIdParseError (nearcore's ParseAccountError text)", () => {
  it.each([
    ["", "the Account ID is too short"],
    ["a", "the Account ID is too short"],
    ["ƒ", "the Account ID contains an invalid character 'ƒ' at index 0"], // 2 UTF-8 bytes: long enough
    ["a".repeat(65), "the Account ID is too long"],
    ["é".repeat(33), "the Account ID is too long"], // 33 characters but 66 bytes
    ["Alice.near", "the Account ID contains an invalid character 'A' at index 0"],
    ["alice@near", "the Account ID contains an invalid character '@' at index 5"],
    ["bob near", "the Account ID contains an invalid character ' ' at index 3"],
    ["tab\there", "the Account ID contains an invalid character '\\t' at index 3"],
    ["it's", "the Account ID contains an invalid character '\\'' at index 2"],
    ["ƒelicia.near", "the Account ID contains an invalid character 'ƒ' at index 0"],
    ["aƒb!", "the Account ID contains an invalid character 'ƒ' at index 1"], // index counts characters
    [".alice", "the Account ID has a redundant separator '.' at index 0"],
    ["alice.", "the Account ID has a redundant separator '.' at index 5"],
    ["alice..near", "the Account ID has a redundant separator '.' at index 6"],
    ["not-_alice", "the Account ID has a redundant separator '_' at index 4"],
    ["a\u0000b", "the Account ID contains an invalid character '\\0' at index 1"],
    ["a\u0007b", "the Account ID contains an invalid character '\\u{7}' at index 1"],
  ])("%j: %s", (id, message) => {
    expect(accountIdParseError(id)).toBe(message);
  });

  it.each(["aa", "alice.near", "1_4m_n0t-al1c3.near", "a".repeat(64), "0".repeat(64)])("accepts %j", (id) => {
    expect(accountIdParseError(id)).toBeUndefined();
  });

  it("agrees with the account id rules on every string", () => {
    const alphabet = fc.constantFrom(..."abz09-_.A@ ƒ".split(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: alphabet, maxLength: 70 }), fc.string({ unit: "grapheme", maxLength: 70 })), (id) => {
        expect(accountIdParseError(id) === undefined).toBe(isValidAccountId(id));
      }),
      { numRuns: 2000, seed: 6 },
    );
  });
});
