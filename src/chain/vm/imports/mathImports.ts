import { createPublicKey, verify } from "node:crypto";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { keccak_256, keccak_512 } from "@noble/hashes/sha3.js";
import { sha256 } from "../../primitives/sha256.js";
import { hostError } from "../HostError.js";
import { secp256k1Recover, secp256k1SignatureValuesOk } from "../secp256k1Recover.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";
import { byteAt } from "../../must.js";

const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: "der", type: "spki" });
    return verify(null, message, key, signature);
  } catch {
    return false; // not a curve point: nearcore answers 0 as well
  }
}

/** Math API: random seed, hashes, signature checks. */
export function mathImports(l: VmLogic): HostImports {
  const hash = (base: "sha256_base" | "keccak256_base" | "keccak512_base", byte: "sha256_byte" | "keccak256_byte" | "keccak512_byte", fn: (d: Uint8Array) => Uint8Array) =>
    (len: bigint, ptr: bigint, reg: bigint): void => {
      l.gas.payBase(base);
      const value = l.memoryOrRegister(ptr, len);
      l.gas.payPer(byte, value.length);
      l.writeRegister(reg, fn(value));
    };
  return {
    random_seed(reg: bigint): void {
      l.gas.payBase("base");
      l.writeRegister(reg, l.context.randomSeed);
    },
    sha256: hash("sha256_base", "sha256_byte", sha256),
    keccak256: hash("keccak256_base", "keccak256_byte", (d) => keccak_256(d)),
    keccak512: hash("keccak512_base", "keccak512_byte", (d) => keccak_512(d)),
    ripemd160(len: bigint, ptr: bigint, reg: bigint): void {
      l.gas.payBase("ripemd160_base");
      const value = l.memoryOrRegister(ptr, len);
      l.gas.payPer("ripemd160_block", Math.floor((value.length + 8) / 64) + 1);
      l.writeRegister(reg, ripemd160(value));
    },
    ed25519_verify(sigLen: bigint, sigPtr: bigint, msgLen: bigint, msgPtr: bigint, pkLen: bigint, pkPtr: bigint): bigint {
      l.gas.payBase("ed25519_verify_base");
      const signature = l.memoryOrRegister(sigPtr, sigLen);
      if (signature.length !== 64) throw hostError({ name: "Ed25519VerifyInvalidInput", fields: { msg: "invalid signature length" } });
      // Kept from ed25519-dalek 1.x so that costs do not change.
      if ((byteAt(signature, 63) & 0b1110_0000) !== 0) return 0n;
      const message = l.memoryOrRegister(msgPtr, msgLen);
      l.gas.payPer("ed25519_verify_byte", message.length);
      const publicKey = l.memoryOrRegister(pkPtr, pkLen);
      if (publicKey.length !== 32) throw hostError({ name: "Ed25519VerifyInvalidInput", fields: { msg: "invalid public key length" } });
      return ed25519Verify(signature, message, publicKey) ? 1n : 0n;
    },
    ecrecover(hLen: bigint, hPtr: bigint, sLen: bigint, sPtr: bigint, v: bigint, flag: bigint, reg: bigint): bigint {
      l.gas.payBase("ecrecover_base");
      const sig = l.memoryOrRegister(sPtr, sLen);
      if (sig.length !== 64) {
        throw hostError({ name: "ECRecoverError", fields: { msg: `The length of the signature: ${sig.length}, exceeds the limit of 64 bytes` } });
      }
      if (v >= 4n) throw hostError({ name: "ECRecoverError", fields: { msg: `V recovery byte 0 through 3 are valid but was provided ${v}` } });
      const h = l.memoryOrRegister(hPtr, hLen);
      if (h.length !== 32) {
        throw hostError({ name: "ECRecoverError", fields: { msg: `The length of the hash: ${h.length}, exceeds the limit of 32 bytes` } });
      }
      if (flag !== 0n && flag !== 1n) {
        throw hostError({ name: "ECRecoverError", fields: { msg: `Malleability flag needs to be 0 or 1, but is instead ${flag}` } });
      }
      if (!secp256k1SignatureValuesOk(sig, flag !== 0n)) return 0n;
      const key = secp256k1Recover(h, sig, Number(v));
      if (key === undefined) return 0n;
      l.writeRegister(reg, key);
      return 1n;
    },
  };
}
