/**
 * Curve host functions on the real VmLogic and `env` imports (hostKit): results, registers,
 * nearcore's HostErrors and the exact gas of each charge, in nearcore's order.
 */
import { bls12_381 } from "@noble/curves/bls12-381";
import { describe, expect, it } from "vitest";
import { E, U64_MAX, hostErrorOf, hostKit } from "./hostKit.js";
import { BN_G1 as G1, BN_G1_DOUBLE, BN_G2 as G2, BN_P as P } from "./crypto/bn254Points.js";
import { le } from "./crypto/leBytes.js";

const G1_DOUBLE = le(...BN_G1_DOUBLE);

const readMem = (bytes: number): bigint => E.read_memory_base + BigInt(bytes) * E.read_memory_byte;
const writeReg = (bytes: number): bigint => E.write_register_base + BigInt(bytes) * E.write_register_byte;

describe("alt_bn128 host functions", () => {
  it("g1_multiexp writes the point to the register: base + read + element × n + register write", () => {
    const k = hostKit();
    const input = le(...G1, 1n, ...G1, 1n);
    const [len, ptr] = k.put(0, input);
    const gas = k.gasOf(() => expect(k.env.alt_bn128_g1_multiexp(len, ptr, 7n)).toBeUndefined());
    expect(k.register(7n)).toEqual(G1_DOUBLE);
    expect(gas).toBe(E.alt_bn128_g1_multiexp_base + readMem(192) + 2n * E.alt_bn128_g1_multiexp_element + writeReg(64));
    const profile = new Map(k.l.gas.gasProfile().map((e) => [e.cost, e.gas_used]));
    expect(profile.get("ALT_BN128_G1_MULTIEXP_ELEMENT")).toBe(String(2n * E.alt_bn128_g1_multiexp_element));
    expect(profile.get("ALT_BN128_G1_MULTIEXP_BASE")).toBe(String(E.alt_bn128_g1_multiexp_base));
  });

  it("g1_sum reads its input from a register when len is u64::MAX", () => {
    const k = hostKit();
    k.l.writeRegister(3n, le(0, ...G1, 0, ...G1), false);
    const gas = k.gasOf(() => k.env.alt_bn128_g1_sum(U64_MAX, 3n, 4n));
    expect(k.register(4n)).toEqual(G1_DOUBLE);
    expect(gas).toBe(E.alt_bn128_g1_sum_base + E.read_register_base + 130n * E.read_register_byte + 2n * E.alt_bn128_g1_sum_element + writeReg(64));
  });

  it("pairing_check returns 1 or 0 and writes no register", () => {
    const k = hostKit();
    const good = le(...G1, ...G2, 1n, P - 2n, ...G2);
    const [len, ptr] = k.put(0, good);
    const gas = k.gasOf(() => expect(k.env.alt_bn128_pairing_check(len, ptr)).toBe(1n));
    expect(gas).toBe(E.alt_bn128_pairing_check_base + readMem(384) + 2n * E.alt_bn128_pairing_check_element);
    k.put(0, le(...G1, ...G2, ...G1, ...G2));
    expect(k.env.alt_bn128_pairing_check(len, ptr)).toBe(0n);
    expect(k.l.registers.size).toBe(0);
  });

  it("a length that does not split fails before the element charge", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, new Uint8Array(95));
    let error;
    const gas = k.gasOf(() => {
      error = hostErrorOf(() => k.env.alt_bn128_g1_multiexp(len, ptr, 0n));
    });
    expect(error).toEqual({ name: "AltBn128InvalidInput", fields: { msg: "slice of size 95 cannot be precisely split into chunks of size 96" } });
    expect(gas).toBe(E.alt_bn128_g1_multiexp_base + readMem(95));
  });

  it("a point off the curve fails after the element charge, with nearcore's message", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, le(0, 1n, 3n));
    let error;
    const gas = k.gasOf(() => {
      error = hostErrorOf(() => k.env.alt_bn128_g1_sum(len, ptr, 0n));
    });
    const raw = [1, ...new Array(31).fill(0), 3, ...new Array(31).fill(0)].map((b: number) => b.toString(16).toUpperCase()).join(", ");
    expect(error).toEqual({ name: "AltBn128InvalidInput", fields: { msg: `invalid g1: [${raw}]` } });
    expect(gas).toBe(E.alt_bn128_g1_sum_base + readMem(65) + E.alt_bn128_g1_sum_element);
    expect(k.register(0n)).toBeUndefined();
  });
});

describe("bls12381 host functions", () => {
  const G1P = bls12_381.G1.ProjectivePoint.BASE;
  const G2P = bls12_381.G2.ProjectivePoint.BASE;

  it("p1_sum: 0 and the point in the register; base, element × (len / 97), read, register write", () => {
    const k = hostKit();
    const input = Uint8Array.from([0, ...G1P.toRawBytes(false), 0, ...G1P.toRawBytes(false)]);
    const [len, ptr] = k.put(0, input);
    const gas = k.gasOf(() => expect(k.env.bls12381_p1_sum(len, ptr, 5n)).toBe(0n));
    expect(k.register(5n)).toEqual(G1P.double().toRawBytes(false));
    expect(gas).toBe(E.bls12381_p1_sum_base + 2n * E.bls12381_p1_sum_element + readMem(194) + writeReg(96));
  });

  it("an invalid point answers 1 and writes no register, after the same charges", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, Uint8Array.from([2, ...G1P.toRawBytes(false)]));
    const gas = k.gasOf(() => expect(k.env.bls12381_p1_sum(len, ptr, 5n)).toBe(1n));
    expect(k.register(5n)).toBeUndefined();
    expect(gas).toBe(E.bls12381_p1_sum_base + E.bls12381_p1_sum_element + readMem(97));
  });

  it("the element charge uses value_len as given: floor(len / item) before the length check", () => {
    const k = hostKit();
    const [, ptr] = k.put(0, new Uint8Array(200));
    let error;
    const gas = k.gasOf(() => {
      error = hostErrorOf(() => k.env.bls12381_g1_multiexp(200n, ptr, 0n));
    });
    expect(error).toEqual({ name: "BLS12381InvalidInput", fields: { msg: "Incorrect input length for bls12381_p1_multiexp: 200 is not divisible by 128" } });
    expect(gas).toBe(E.bls12381_g1_multiexp_base + E.bls12381_g1_multiexp_element + readMem(200));
  });

  it("input from a register (len = u64::MAX) overflows that charge, as in nearcore: IntegerOverflow", () => {
    const k = hostKit();
    k.l.writeRegister(1n, G1P.toRawBytes(true), false);
    const gas = k.gasOf(() => expect(hostErrorOf(() => k.env.bls12381_p1_decompress(U64_MAX, 1n, 2n))).toEqual({ name: "IntegerOverflow" }));
    expect(gas).toBe(E.bls12381_p1_decompress_base);
  });

  it("decompress, map and multiexp write their outputs; costs scale with the items", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, Uint8Array.from([...G2P.toRawBytes(true), ...G2P.negate().toRawBytes(true)]));
    const gas = k.gasOf(() => expect(k.env.bls12381_p2_decompress(len, ptr, 1n)).toBe(0n));
    expect(k.register(1n)).toEqual(Uint8Array.from([...G2P.toRawBytes(false), ...G2P.negate().toRawBytes(false)]));
    expect(gas).toBe(E.bls12381_p2_decompress_base + 2n * E.bls12381_p2_decompress_element + readMem(192) + writeReg(384));
    const [fl, fp] = k.put(0, new Uint8Array(96).fill(1));
    const mapGas = k.gasOf(() => expect(k.env.bls12381_map_fp2_to_g2(fl, fp, 2n)).toBe(0n));
    expect(mapGas).toBe(E.bls12381_map_fp2_to_g2_base + E.bls12381_map_fp2_to_g2_element + readMem(96) + writeReg(192));
    const scalar = new Uint8Array(32);
    scalar[0] = 3;
    const [ml, mp] = k.put(0, Uint8Array.from([...G2P.toRawBytes(false), ...scalar]));
    expect(k.env.bls12381_g2_multiexp(ml, mp, 3n)).toBe(0n);
    expect(k.register(3n)).toEqual(G2P.multiply(3n).toRawBytes(false));
  });

  it("pairing_check counts elements on the data read (a register works) and returns 0, 2 or 1", () => {
    const k = hostKit();
    const one = Uint8Array.from([...G1P.toRawBytes(false), ...G2P.toRawBytes(false), ...G1P.negate().toRawBytes(false), ...G2P.toRawBytes(false)]);
    k.l.writeRegister(9n, one, false);
    const gas = k.gasOf(() => expect(k.env.bls12381_pairing_check(U64_MAX, 9n)).toBe(0n));
    expect(gas).toBe(E.bls12381_pairing_base + E.read_register_base + 576n * E.read_register_byte + 2n * E.bls12381_pairing_element);
    const [len, ptr] = k.put(0, one.subarray(0, 288));
    expect(k.env.bls12381_pairing_check(len, ptr)).toBe(2n);
    expect(hostErrorOf(() => k.env.bls12381_pairing_check(len - 1n, ptr))).toEqual({
      name: "BLS12381InvalidInput",
      fields: { msg: "Incorrect input length for bls12381_pairing_check: 287 is not divisible by 288" },
    });
  });
});
