/**
 * BLS12-381 operations with nearcore's (blst's) encodings: rows of nearcore's test vectors
 * (near-vm-runner logic/tests/bls12381_test_vectors, EIP-2537 encoded: each Fp padded to 64
 * bytes, Fp2 as c0 ‖ c1; converted here to blst's 48-byte Fp and c1 ‖ c0), and the cases
 * nearcore's version-0 semantics single out (flags, infinity, (0, ±2), subgroup checks).
 */
import { bls12_381 } from "@noble/curves/bls12-381";
import { describe, expect, it } from "vitest";
import {
  g1Multiexp,
  g2Multiexp,
  mapFp2ToG2,
  mapFpToG1,
  p1Decompress,
  p1Sum,
  p2Decompress,
  p2Sum,
  pairingCheck,
} from "../../../../src/chain/vm/crypto/bls12381.js";

const hex = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : Buffer.from(b).toString("hex"));
const bytes = (...parts: (string | Uint8Array)[]): Uint8Array =>
  Uint8Array.from(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "hex") : Buffer.from(p)))));
/** EIP-2537 field elements (64-byte, big-endian) to blst's 48 bytes. */
const fps = (eip: string): string[] => Array.from({ length: eip.length / 128 }, (_, i) => eip.slice(i * 128 + 32, (i + 1) * 128));
/** EIP-2537 G1 point or Fp: the 48-byte elements concatenated. */
const g1 = (eip: string): string => fps(eip).join("");
/** EIP-2537 Fp2 values (c0, c1 pairs) to blst's c1 ‖ c0. */
const g2 = (eip: string): string => {
  const f = fps(eip);
  let out = "";
  for (let i = 0; i < f.length; i += 2) out += f[i + 1]! + f[i]!;
  return out;
};

const G1 = bls12_381.G1.ProjectivePoint.BASE;
const G2 = bls12_381.G2.ProjectivePoint.BASE;
const raw1 = (p: typeof G1): Uint8Array => p.toRawBytes(false);
const raw2 = (p: typeof G2): Uint8Array => p.toRawBytes(false);
const INF1 = bytes("40", "00".repeat(95));
const INF2 = bytes("40", "00".repeat(191));
const le32 = (v: bigint): Uint8Array => Uint8Array.from(Buffer.from(v.toString(16).padStart(64, "0"), "hex").reverse());
const R = bls12_381.params.r;

/** A point on y² = x³ + 4 outside G1 (most curve points are: the cofactor is large). */
function pointOutsideG1(): Uint8Array {
  const { Fp } = bls12_381.fields;
  for (let x = 1n; ; x++) {
    try {
      const y = Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), 4n));
      const p = bls12_381.G1.ProjectivePoint.fromAffine({ x, y });
      if (!p.isTorsionFree()) return bytes(x.toString(16).padStart(96, "0"), y.toString(16).padStart(96, "0"));
    } catch {
      // not a square: next x
    }
  }
}

describe("bls12381 vectors (nearcore's CSV rows)", () => {
  it.each([
    [
      "0000000000000000000000000000000012196c5a43d69224d8713389285f26b98f86ee910ab3dd668e413738282003cc5b7357af9a7af54bb713d62255e80f560000000000000000000000000000000006ba8102bfbeea4416b710c73e8cce3032c31c6269c44906f8ac4f7874ce99fb17559992486528963884ce429a992fee000000000000000000000000000000000001101098f5c39893765766af4512a0c74e1bb89bc7e6fdf14e3e7337d257cc0f94658179d83320b99f31ff94cd2bac0000000000000000000000000000000003e1a9f9f44ca2cdab4f43a1a3ee3470fdf90b2fc228eb3b709fcd72f014838ac82a6d797aeefed9a0804b22ed1ce8f7",
      "000000000000000000000000000000001466e1373ae4a7e7ba885c5f0c3ccfa48cdb50661646ac6b779952f466ac9fc92730dcaed9be831cd1f8c4fefffd5209000000000000000000000000000000000c1fb750d2285d4ca0378e1e8cdbf6044151867c34a711b73ae818aee6dbe9e886f53d7928cc6ed9c851e0422f609b11",
    ],
    [
      "00000000000000000000000000000000117dbe419018f67844f6a5e1b78a1e597283ad7b8ee7ac5e58846f5a5fd68d0da99ce235a91db3ec1cf340fe6b7afcdb0000000000000000000000000000000013316f23de032d25e912ae8dc9b54c8dba1be7cecdbb9d2228d7e8f652011d46be79089dd0a6080a73c82256ce5e4ed2000000000000000000000000000000000441e7f7f96198e4c23bd5eb16f1a7f045dbc8c53219ab2bcea91d3a027e2dfe659feac64905f8b9add7e4bfc91bec2b0000000000000000000000000000000005fc51bb1b40c87cd4292d4b66f8ca5ce4ef9abd2b69d4464b4879064203bda7c9fc3f896a3844ebc713f7bb20951d95",
      "0000000000000000000000000000000016b8ab56b45a9294466809b8e858c1ad15ad0d52cfcb62f8f5753dc94cee1de6efaaebce10701e3ec2ecaa9551024ea600000000000000000000000000000000124571eec37c0b1361023188d66ec17c1ec230d31b515e0e81e599ec19e40c8a7c8cdea9735bc3d8b4e37ca7e5dd71f6",
    ],
  ])("g1_add.csv row → p1_sum (%#)", (input, result) => {
    const points = g1(input);
    expect(hex(p1Sum(bytes("00", points.slice(0, 192), "00", points.slice(192))))).toBe(g1(result));
  });

  it.each([
    [
      "0000000000000000000000000000000014406e5bfb9209256a3820879a29ac2f62d6aca82324bf3ae2aa7d3c54792043bd8c791fccdb080c1a52dc68b8b69350",
      "000000000000000000000000000000000d7721bcdb7ce1047557776eb2659a444166dc6dd55c7ca6e240e21ae9aa18f529f04ac31d861b54faf3307692545db700000000000000000000000000000000108286acbdf4384f67659a8abe89e712a504cb3ce1cba07a716869025d60d499a00d1da8cdc92958918c222ea93d87f0",
    ],
    [
      "000000000000000000000000000000000e885bb33996e12f07da69073e2c0cc880bc8eff26d2a724299eb12d54f4bcf26f4748bb020e80a7e3794a7b0e47a641",
      "00000000000000000000000000000000191ba6e4c4dafa22c03d41b050fe8782629337641be21e0397dc2553eb8588318a21d30647182782dee7f62a22fd020c000000000000000000000000000000000a721510a67277eabed3f153bd91df0074e1cbd37ef65b85226b1ce4fb5346d943cf21c388f0c5edbc753888254c760a",
    ],
  ])("fp_to_g1.csv row → map_fp_to_g1 (%#)", (input, result) => {
    expect(hex(mapFpToG1(bytes(g1(input))))).toBe(g1(result));
  });

  it("map_fp_to_g1 / map_fp2_to_g2 refuse field elements ≥ p (the *_error.csv rows)", () => {
    const p = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
    expect(mapFpToG1(bytes(p))).toBeUndefined();
    expect(mapFpToG1(bytes("00".repeat(47), "01", p))).toBeUndefined();
    expect(mapFp2ToG2(bytes(p, "00".repeat(48)))).toBeUndefined();
    expect(mapFp2ToG2(bytes("00".repeat(48), p))).toBeUndefined();
  });

  it("map_fp_to_g1 maps every element of the input, outputs concatenated", () => {
    const a = "14406e5bfb9209256a3820879a29ac2f62d6aca82324bf3ae2aa7d3c54792043bd8c791fccdb080c1a52dc68b8b69350";
    const b = "0e885bb33996e12f07da69073e2c0cc880bc8eff26d2a724299eb12d54f4bcf26f4748bb020e80a7e3794a7b0e47a641";
    expect(hex(mapFpToG1(bytes(a, b)))).toBe(hex(bytes(mapFpToG1(bytes(a))!, mapFpToG1(bytes(b))!)));
  });

  it.each([
    [
      "0000000000000000000000000000000014406e5bfb9209256a3820879a29ac2f62d6aca82324bf3ae2aa7d3c54792043bd8c791fccdb080c1a52dc68b8b69350000000000000000000000000000000000e885bb33996e12f07da69073e2c0cc880bc8eff26d2a724299eb12d54f4bcf26f4748bb020e80a7e3794a7b0e47a641",
      "000000000000000000000000000000000d029393d3a13ff5b26fe52bd8953768946c5510f9441f1136f1e938957882db6adbd7504177ee49281ecccba596f2bf000000000000000000000000000000001993f668fb1ae603aefbb1323000033fcb3b65d8ed3bf09c84c61e27704b745f540299a1872cd697ae45a5afd780f1d600000000000000000000000000000000079cb41060ef7a128d286c9ef8638689a49ca19da8672ea5c47b6ba6dbde193ee835d3b87a76a689966037c07159c10d0000000000000000000000000000000017c688ae9a8b59a7069c27f2d58dd2196cb414f4fb89da8510518a1142ab19d158badd1c3bad03408fafb1669903cd6c",
    ],
    [
      "000000000000000000000000000000000ba1b6d79150bdc368a14157ebfe8b5f691cf657a6bbe30e79b6654691136577d2ef1b36bfb232e3336e7e4c9352a8ed000000000000000000000000000000000f12847f7787f439575031bcdb1f03cfb79f942f3a9709306e4bd5afc73d3f78fd1c1fef913f503c8cbab58453fb7df2",
      "000000000000000000000000000000000a2bca68ca23f3f03c678140d87465b5b336dbd50926d1219fcc0def162280765fe1093c117d52483d3d8cdc7ab76529000000000000000000000000000000000fe83e3a958d6038569da6132bfa19f0e3dae3bee0d8a60e7cc33e4d7084a9e8c32fe31ec6e617277e2e450699eba1f80000000000000000000000000000000005602683f0ef231cc0b7c8c695765d7933f4efa7503ed9f2aa3c774284eabcdd32fd287b6a3539c9749f2e15b58f5cd50000000000000000000000000000000000b4f17de0db6e9d081723b613b23864c1eeae91b7cbda40ecd24823022aee7fc4068adc41947b97e17009fad9d0d4de",
    ],
  ])("fp2_to_g2.csv row → map_fp2_to_g2 (%#)", (input, result) => {
    expect(hex(mapFp2ToG2(bytes(g2(input))))).toBe(g2(result));
  });
});

describe("bls12381 sums, multiexp, decompression and pairing", () => {
  it("p1_sum and p2_sum: signs, the infinity encoding, the empty sum", () => {
    expect(hex(p1Sum(bytes("00", raw1(G1), "00", raw1(G1))))).toBe(hex(raw1(G1.double())));
    expect(hex(p1Sum(bytes("00", raw1(G1), "01", raw1(G1))))).toBe(hex(INF1));
    expect(hex(p1Sum(bytes("01", raw1(G1), "00", INF1)))).toBe(hex(raw1(G1.negate())));
    expect(hex(p1Sum(new Uint8Array(0)))).toBe(hex(INF1));
    expect(hex(p2Sum(bytes("00", raw2(G2), "00", raw2(G2))))).toBe(hex(raw2(G2.double())));
    expect(hex(p2Sum(bytes("01", raw2(G2))))).toBe(hex(raw2(G2.negate())));
  });

  it("sums accept curve points outside the subgroup; multiexp and pairing refuse them", () => {
    const outside = pointOutsideG1();
    const doubled = p1Sum(bytes("00", outside, "00", outside));
    expect(doubled).toBeDefined();
    expect(hex(p1Sum(bytes("00", outside, "01", outside)))).toBe(hex(INF1));
    expect(g1Multiexp(bytes(outside, le32(1n)))).toBeUndefined();
    expect(pairingCheck(bytes(outside, raw2(G2)))).toBe(1n);
  });

  it.each([
    ["a sign other than 0 or 1", bytes("02", raw1(G1))],
    ["the compression flag", bytes("00", raw1(G1).map((b, i) => (i === 0 ? b | 0x80 : b)))],
    ["infinity with a non-zero byte", bytes("00", "40", "00".repeat(94), "01")],
    ["all zero (not the infinity encoding)", bytes("00", "00".repeat(96))],
    ["(0, 2): on the curve, reported as not in the group", bytes("00", "00".repeat(48), "00".repeat(47), "02")],
    ["a coordinate ≥ p", bytes("00", "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", raw1(G1).subarray(48))],
    ["a point off the curve", bytes("00", raw1(G1).subarray(0, 95), Uint8Array.of(raw1(G1)[95]! ^ 1))],
  ])("p1_sum answers undefined (host: 1) for %s", (_name, input) => {
    expect(p1Sum(input)).toBeUndefined();
  });

  it("g1/g2 multiexp: Σ s·P with 32-byte little-endian scalars (taken mod r)", () => {
    expect(hex(g1Multiexp(bytes(raw1(G1), le32(5n), raw1(G1.double()), le32(3n))))).toBe(hex(raw1(G1.multiply(11n))));
    expect(hex(g1Multiexp(bytes(raw1(G1), le32(R - 1n))))).toBe(hex(raw1(G1.negate())));
    expect(hex(g1Multiexp(bytes(raw1(G1), le32(R + 2n))))).toBe(hex(raw1(G1.double())));
    expect(hex(g1Multiexp(bytes(raw1(G1), le32(0n), INF1, le32(7n))))).toBe(hex(INF1));
    expect(hex(g2Multiexp(bytes(raw2(G2), le32(2n), raw2(G2), le32(1n))))).toBe(hex(raw2(G2.multiply(3n))));
  });

  it("p1/p2 decompress: ZCash compressed points to blst's uncompressed ones", () => {
    const pts = [G1, G1.negate(), G1.multiply(12345n)];
    expect(hex(p1Decompress(bytes(...pts.map((p) => p.toRawBytes(true)))))).toBe(hex(bytes(...pts.map(raw1))));
    const pts2 = [G2, G2.negate(), G2.multiply(777n)];
    expect(hex(p2Decompress(bytes(...pts2.map((p) => p.toRawBytes(true)))))).toBe(hex(bytes(...pts2.map(raw2))));
    expect(hex(p1Decompress(bytes("c0", "00".repeat(47))))).toBe(hex(INF1));
    expect(hex(p2Decompress(bytes("c0", "00".repeat(95))))).toBe(hex(INF2));
    // No compression flag, infinity with the sign bit, and x = 0 ((0, ±2)) are invalid.
    expect(p1Decompress(bytes(G1.toRawBytes(true)).map((b, i) => (i === 0 ? b & 0x7f : b)))).toBeUndefined();
    expect(p1Decompress(bytes("e0", "00".repeat(47)))).toBeUndefined();
    expect(p1Decompress(bytes("80", "00".repeat(47)))).toBeUndefined();
    // x ≥ p under the compression flag (as nearcore's add_p_x): not canonical.
    expect(p1Decompress(bytes((bls12_381.fields.Fp.ORDER | (1n << 383n)).toString(16).padStart(96, "0")))).toBeUndefined();
  });

  it("pairing_check: 0 when the product is one, 2 when not, 1 for invalid points", () => {
    const P = raw1(G1);
    const Q = raw2(G2);
    expect(pairingCheck(bytes(P, Q, raw1(G1.negate()), Q))).toBe(0n);
    expect(pairingCheck(bytes(raw1(G1.multiply(6n)), Q, raw1(G1.multiply(2n)), raw2(G2.multiply(3n).negate())))).toBe(0n);
    expect(pairingCheck(bytes(P, Q))).toBe(2n);
    expect(pairingCheck(bytes(INF1, Q))).toBe(0n);
    expect(pairingCheck(new Uint8Array(0))).toBe(0n);
    expect(pairingCheck(bytes(P, Q.map((b, i) => (i === 191 ? b ^ 1 : b))))).toBe(1n);
  });

  // nearcore's test_bls12381_pairing_check_one_point and _incorrect_input_point cases.
  it("pairing_check with points at infinity: one (0); malformed infinity encodings: invalid (1)", () => {
    const P = raw1(G1.multiply(99n));
    const Q = raw2(G2.multiply(7n));
    expect(pairingCheck(bytes(INF1, INF2))).toBe(0n);
    expect(pairingCheck(bytes(INF1, Q))).toBe(0n);
    expect(pairingCheck(bytes(P, INF2))).toBe(0n);
    expect(pairingCheck(bytes(P, Q))).toBe(2n);
    expect(pairingCheck(bytes("40", "00".repeat(94), "01", Q))).toBe(1n);
    expect(pairingCheck(bytes("c0", "00".repeat(95), Q))).toBe(1n);
    expect(pairingCheck(bytes(P.map((b, i) => (i === 0 ? b | 0x80 : b)), Q))).toBe(1n);
  });

  it.each([
    [() => p1Sum(new Uint8Array(98)), "Incorrect input length for bls12381_p1_sum: 98 is not divisible by 97"],
    [() => p2Sum(new Uint8Array(1)), "Incorrect input length for bls12381_p2_sum: 1 is not divisible by 193"],
    [() => g1Multiexp(new Uint8Array(127)), "Incorrect input length for bls12381_p1_multiexp: 127 is not divisible by 128"],
    [() => g2Multiexp(new Uint8Array(225)), "Incorrect input length for bls12381_p2_multiexp: 225 is not divisible by 224"],
    [() => mapFpToG1(new Uint8Array(47)), "Incorrect input length for bls12381_map_fp_to_g1: 47 is not divisible by 48"],
    [() => mapFp2ToG2(new Uint8Array(95)), "Incorrect input length for bls12381_map_fp2_to_g2: 95 is not divisible by 96"],
    [() => p1Decompress(new Uint8Array(49)), "Incorrect input length for bls12381_p1_decompress: 49 is not divisible by 48"],
    [() => p2Decompress(new Uint8Array(97)), "Incorrect input length for bls12381_p2_decompress: 97 is not divisible by 96"],
    [() => pairingCheck(new Uint8Array(289)), "Incorrect input length for bls12381_pairing_check: 289 is not divisible by 288"],
  ])("a length that is no multiple of the item size throws nearcore's message (%#)", (fn, message) => {
    expect(fn).toThrow(message);
  });
});
