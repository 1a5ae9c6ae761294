import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidAccountIdError, assertValidAccountId, isValidAccountId } from "@shardkit/primitives/accountId";

const NEARCORE_RULE = /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;

describe("account ids", () => {
  it.each(["ok", "bob", "alice.test.near", "a-b_c.d", "0o", "near", "1.2.3", "x".repeat(64), "a1-b2_c3.testnet"])(
    "accepts %j",
    (id) => expect(isValidAccountId(id)).toBe(true),
  );

  it.each(["", "a", "x".repeat(65), "Alice", "a..b", ".ab", "ab.", "a-.b", "a_-b", "-ab", "ab_", "a b", "a@b", "ab,c", "ä.near"])(
    "rejects %j",
    (id) => expect(isValidAccountId(id)).toBe(false),
  );

  it("agrees with nearcore's regex plus the 2..64 length rule (property)", () => {
    const ch = fc.constantFrom("a", "b", "z", "0", "9", ".", "-", "_", "A", ",");
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 70 }).map((a) => a.join("")), (id) => {
        const want = id.length >= 2 && id.length <= 64 && NEARCORE_RULE.test(id);
        expect(isValidAccountId(id)).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });

  it("asserts with a named error", () => {
    expect(() => assertValidAccountId("A")).toThrow(InvalidAccountIdError);
    expect(() => assertValidAccountId("ok")).not.toThrow();
  });
});
