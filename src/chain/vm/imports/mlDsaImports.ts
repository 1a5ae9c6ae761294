import { mlDsa65Verify } from "@shardkit/primitives/mlDsa65";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

const SIGNATURE_LENGTH = 3309;
const PUBLIC_KEY_LENGTH = 1952;

/** near_crypto's length error (`MlDsa65Signature/PublicKey::try_from`), the HostError's msg. */
const lengthError = (what: "signature" | "key", expected: number, given: number) =>
  hostError({
    name: "MlDsaVerifyInvalidInput",
    fields: { msg: `invalid ${what} length: expected the input of ${expected} bytes, but ${given} was given` },
  });

/**
 * ml_dsa_verify (FIPS 204 ML-DSA-65, empty context, the message not prehashed), linked from
 * protocol 87 (`ml_dsa_verify_host_fn`), in nearcore's order (host.rs `ml_dsa_verify`):
 * ml_dsa_verify_base; the signature (a wrong length is MlDsaVerifyInvalidInput); the message
 * and ml_dsa_verify_byte per byte; the key (wrong length: the same error). A well-sized pair
 * that does not verify answers 0. The verifier is the one transactions use.
 */
export function mlDsaImports(l: VmLogic): HostImports {
  return {
    ml_dsa_verify(sigLen: bigint, sigPtr: bigint, msgLen: bigint, msgPtr: bigint, pkLen: bigint, pkPtr: bigint): bigint {
      l.gas.payBase("ml_dsa_verify_base");
      const signature = l.viewMemoryOrRegister(sigPtr, sigLen);
      if (signature.length !== SIGNATURE_LENGTH) throw lengthError("signature", SIGNATURE_LENGTH, signature.length);
      const message = l.viewMemoryOrRegister(msgPtr, msgLen);
      l.gas.payPer("ml_dsa_verify_byte", message.length);
      const key = l.viewMemoryOrRegister(pkPtr, pkLen);
      if (key.length !== PUBLIC_KEY_LENGTH) throw lengthError("key", PUBLIC_KEY_LENGTH, key.length);
      return mlDsa65Verify(message, signature, key) ? 1n : 0n;
    },
  };
}
