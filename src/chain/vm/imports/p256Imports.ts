import { P256_PUBLIC_KEY_LENGTH, P256_SIGNATURE_LENGTH, p256VerifyPrehash, parseP256PublicKey, parseP256Signature } from "../crypto/p256.js";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * p256_verify in nearcore's order (wasmtime_runner logic.rs): p256_verify_base; the signature
 * (a wrong length is an error, an unparsable one answers 0 before anything else is read); the
 * message and p256_verify_byte per byte; the public key (wrong length: error; not a point: 0).
 */
export function p256Imports(l: VmLogic): HostImports {
  return {
    p256_verify(sigLen: bigint, sigPtr: bigint, msgLen: bigint, msgPtr: bigint, pkLen: bigint, pkPtr: bigint): bigint {
      l.gas.payBase("p256_verify_base");
      const sig = l.viewMemoryOrRegister(sigPtr, sigLen);
      if (sig.length !== P256_SIGNATURE_LENGTH) throw hostError({ name: "P256VerifyInvalidInput", fields: { msg: "invalid signature length" } });
      const signature = parseP256Signature(sig);
      if (signature === undefined) return 0n;
      const message = l.viewMemoryOrRegister(msgPtr, msgLen);
      l.gas.payPer("p256_verify_byte", message.length);
      const pk = l.viewMemoryOrRegister(pkPtr, pkLen);
      if (pk.length !== P256_PUBLIC_KEY_LENGTH) throw hostError({ name: "P256VerifyInvalidInput", fields: { msg: "invalid public key length" } });
      const key = parseP256PublicKey(pk);
      if (key === undefined) return 0n;
      return p256VerifyPrehash(signature, message, key) ? 1n : 0n;
    },
  };
}
