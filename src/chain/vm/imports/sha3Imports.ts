import { createHash } from "node:crypto";
import type { ExtCost } from "../../runtime/parameters.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * sha3_256, sha3_384 and sha3_512 (FIPS-202 SHA-3, not keccak's padding), linked from protocol 87
 * (`sha3_host_fns`; nearcore host.rs `sha3_generic`): the base cost, the input (memory or a
 * register), the byte cost on its length, the digest into the register, as sha256 does.
 */
export function sha3Imports(l: VmLogic): HostImports {
  const hash = (algorithm: string, base: ExtCost, byte: ExtCost) =>
    (len: bigint, ptr: bigint, reg: bigint): void => {
      l.gas.payBase(base);
      const value = l.memoryOrRegister(ptr, len);
      l.gas.payPer(byte, value.length);
      const digest = createHash(algorithm).update(value).digest();
      l.writeRegister(reg, new Uint8Array(digest.buffer, digest.byteOffset, digest.length));
    };
  return {
    sha3_256: hash("sha3-256", "sha3_256_base", "sha3_256_byte"),
    sha3_384: hash("sha3-384", "sha3_384_base", "sha3_384_byte"),
    sha3_512: hash("sha3-512", "sha3_512_base", "sha3_512_byte"),
  };
}
