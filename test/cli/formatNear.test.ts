import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatNear } from "../../src/cli/formatNear.js";

describe("formatNear", () => {
  it.each([
    [10_000n * 10n ** 24n, "10000"],
    [5n * 10n ** 23n, "0.5"],
    [1n, "0.000000000000000000000001"],
    [0n, "0"],
    [-15n * 10n ** 23n, "-1.5"],
  ])("%s yocto is %s NEAR", (yocto, near) => {
    expect(formatNear(yocto)).toBe(near);
  });

  it("is exact: the decimal text reads back to the same yocto amount", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }), (yocto) => {
        const [whole, fraction = ""] = formatNear(yocto).split(".");
        expect(BigInt(whole!) * 10n ** 24n + BigInt(fraction.padEnd(24, "0"))).toBe(yocto);
      }),
    );
  });
});
