import { secp256k1 } from "@noble/curves/secp256k1";

/*
 * secp256k1 public-key recovery for the `ecrecover` host function (nearcore near-crypto
 * `Secp256K1Signature::recover`, libsecp256k1 semantics): the signer's 64-byte uncompressed
 * key (x ‖ y, big-endian) from a 32-byte hash, a 64-byte r ‖ s signature and a recovery id.
 * The curve arithmetic is @noble/curves'; this file keeps near-crypto's pre-checks.
 */
const N = secp256k1.CURVE.n;

const toBig = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString("hex") || "0"}`);

/** near-crypto `check_signature_values`: r < n and s < n (s ≤ n/2 when rejecting the upper half). */
export function secp256k1SignatureValuesOk(signature: Uint8Array, rejectUpper: boolean): boolean {
  const r = toBig(signature.subarray(0, 32));
  const s = toBig(signature.subarray(32, 64));
  return r < N && (rejectUpper ? s <= N >> 1n : s < N);
}

/**
 * The 64-byte public key that signed `hash`, or undefined when none does (r or s out of
 * [1, n), recovery id 2/3 with r + n beyond the field, no curve point, or the point at
 * infinity), as libsecp256k1's recover answers.
 */
export function secp256k1Recover(hash: Uint8Array, signature: Uint8Array, recoveryId: number): Uint8Array | undefined {
  try {
    const sig = new secp256k1.Signature(toBig(signature.subarray(0, 32)), toBig(signature.subarray(32, 64)));
    const point = sig.addRecoveryBit(recoveryId & 3).recoverPublicKey(hash);
    return point.toRawBytes(false).slice(1);
  } catch {
    return undefined;
  }
}
