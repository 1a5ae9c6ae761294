/**
 * The curve host functions through the real VM (prepare, instrument, link, run): a WAT
 * contract calls them on its arguments; results, HostErrors and the gas_profile entries of
 * their ext costs are those of nearcore's charges.
 */
import { bls12_381 } from "@noble/curves/bls12-381";
import { p256 } from "@noble/curves/p256";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { runContract } from "../../../src/chain/vm/runContract.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { le } from "./crypto/leBytes.js";
import { BN_G1, BN_G1_NEG, BN_G2 } from "./crypto/bn254Points.js";
import { CURVES } from "./curvesContract.js";
import { DEFAULT_CONTEXT, E, P } from "./hostKit.js";

const cache = new ContractCache(wasmLimitsOf(P));

function run(methodName: string, input: Uint8Array) {
  let n = 0;
  return runContract({
    codeHash: Buffer.from(sha256(CURVES)).toString("hex"),
    code: () => CURVES,
    codeLength: CURVES.length,
    methodName,
    context: { ...DEFAULT_CONTEXT, input },
    params: P,
    ext: { storageGet: () => undefined, storageSet: () => {}, storageRemove: () => {}, validatorStake: () => undefined, validatorTotalStake: () => 0n },
    newDataId: () => sha256(Uint8Array.of(n++)),
    cache,
  });
}

const value = (out: ReturnType<typeof run>): Uint8Array => {
  if (out.returnData.kind !== "Value") throw new Error(`no value: ${JSON.stringify(out.error)}`);
  return out.returnData.value;
};
const u64 = (b: Uint8Array): bigint => Buffer.from(b).readBigUInt64LE(0);
/** gas_profile entries of host costs whose name starts with `prefix`. */
const profileOf = (out: ReturnType<typeof run>, prefix: string) =>
  Object.fromEntries(out.profile.filter((e) => e.cost.startsWith(prefix)).map((e) => [e.cost, BigInt(e.gas_used)]));


describe("curve host functions in a contract", () => {
  it("alt_bn128: sum and multiexp return the point; pairing 1/0; profile has their costs", () => {
    const sum = run("bn_sum", le(0, ...BN_G1, 0, ...BN_G1, 1, ...BN_G1));
    expect(sum.error).toBeUndefined();
    expect(value(sum)).toEqual(le(...BN_G1));
    expect(profileOf(sum, "ALT_BN128")).toEqual({ ALT_BN128_G1_SUM_BASE: E.alt_bn128_g1_sum_base, ALT_BN128_G1_SUM_ELEMENT: 3n * E.alt_bn128_g1_sum_element });
    const mul = run("bn_multiexp", le(...BN_G1, 3n, ...BN_G1_NEG, 1n));
    expect(value(mul)).toEqual(value(run("bn_sum", le(0, ...BN_G1, 0, ...BN_G1))));
    const ok = run("bn_pairing", le(...BN_G1, ...BN_G2, ...BN_G1_NEG, ...BN_G2));
    expect(u64(value(ok))).toBe(1n);
    expect(profileOf(ok, "ALT_BN128")).toEqual({
      ALT_BN128_PAIRING_CHECK_BASE: E.alt_bn128_pairing_check_base,
      ALT_BN128_PAIRING_CHECK_ELEMENT: 2n * E.alt_bn128_pairing_check_element,
    });
    expect(u64(value(run("bn_pairing", le(...BN_G1, ...BN_G2))))).toBe(0n);
  });

  it("alt_bn128 invalid input fails the call with AltBn128InvalidInput, the gas charged so far burnt", () => {
    const out = run("bn_sum", le(2, ...BN_G1));
    expect(out.error).toEqual({ kind: "HostError", error: { name: "AltBn128InvalidInput", fields: { msg: "invalid bool: [2]" } } });
    expect(profileOf(out, "ALT_BN128")).toEqual({ ALT_BN128_G1_SUM_BASE: E.alt_bn128_g1_sum_base, ALT_BN128_G1_SUM_ELEMENT: E.alt_bn128_g1_sum_element });
  });

  it("p256_verify: 1 for a good signature over the prehash, 0 otherwise; P256VerifyInvalidInput on a short key", () => {
    const secret = new Uint8Array(32).fill(0x42);
    const prehash = sha256(new TextEncoder().encode("near"));
    const sig = p256.sign(prehash, secret, { prehash: false, lowS: false }).toCompactRawBytes();
    const key = p256.getPublicKey(secret, true);
    const good = run("p256", Uint8Array.from([...sig, ...key, ...prehash]));
    expect(u64(value(good))).toBe(1n);
    expect(profileOf(good, "P256")).toEqual({ P256_VERIFY_BASE: E.p256_verify_base, P256_VERIFY_BYTE: 32n * E.p256_verify_byte });
    expect(u64(value(run("p256", Uint8Array.from([...sig, ...key, ...prehash.map((b) => b ^ 1)]))))).toBe(0n);
  });

  it("bls12381: sum, g2 multiexp, map, decompress and pairing through the contract", () => {
    const G1 = bls12_381.G1.ProjectivePoint.BASE;
    const G2 = bls12_381.G2.ProjectivePoint.BASE;
    const sum = run("bls_p1_sum", Uint8Array.from([0, ...G1.toRawBytes(false), 0, ...G1.double().toRawBytes(false)]));
    expect(value(sum)).toEqual(G1.multiply(3n).toRawBytes(false));
    expect(profileOf(sum, "BLS12381")).toEqual({ BLS12381_P1_SUM_BASE: E.bls12381_p1_sum_base, BLS12381_P1_SUM_ELEMENT: 2n * E.bls12381_p1_sum_element });
    const scalar = le(5n);
    expect(value(run("bls_g2_multiexp", Uint8Array.from([...G2.toRawBytes(false), ...scalar])))).toEqual(G2.multiply(5n).toRawBytes(false));
    expect(value(run("bls_p2_decompress", G2.toRawBytes(true)))).toEqual(G2.toRawBytes(false));
    // An invalid sign byte: status 1, no output.
    expect(u64(value(run("bls_p1_sum", Uint8Array.from([7, ...G1.toRawBytes(false)]))))).toBe(1n);
    const mapped = run("bls_map_fp_to_g1", new Uint8Array(48).fill(0x11));
    expect(value(mapped)).toHaveLength(96);
    const pairing = run("bls_pairing", Uint8Array.from([...G1.toRawBytes(false), ...G2.toRawBytes(false), ...G1.negate().toRawBytes(false), ...G2.toRawBytes(false)]));
    expect(u64(value(pairing))).toBe(0n);
    expect(profileOf(pairing, "BLS12381")).toEqual({ BLS12381_PAIRING_BASE: E.bls12381_pairing_base, BLS12381_PAIRING_ELEMENT: 2n * E.bls12381_pairing_element });
    const bad = run("bls_pairing", new Uint8Array(100));
    expect(bad.error).toEqual({
      kind: "HostError",
      error: { name: "BLS12381InvalidInput", fields: { msg: "Incorrect input length for bls12381_pairing_check: 100 is not divisible by 288" } },
    });
  });
});
