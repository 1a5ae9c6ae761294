import { base58Encode } from "./base58.js";
import type { BorshWriter } from "./borshWriter.js";
import { KEY_TYPE_NAMES, KeyType } from "./publicKey.js";

/**
 * A signature as nearcore carries it: key type and raw bytes (ed25519: 64, secp256k1: 65 =
 * r‖s‖v, ML-DSA-65: 3,309).
 */
export interface Signature {
  readonly keyType: KeyType;
  readonly data: Uint8Array;
}

/** Raw signature length per key type. */
export const SIGNATURE_LENGTH: Readonly<Record<KeyType, number>> = { 0: 64, 1: 65, 2: 3309 };

const NAMES = KEY_TYPE_NAMES;

/** "ed25519:<base58>" / "secp256k1:<base58>" / "ml-dsa-65:<base58>", nearcore's JSON form of a signature. */
export function formatSignature(signature: Signature): string {
  return `${NAMES[signature.keyType]}:${base58Encode(signature.data)}`;
}

/** Borsh: key type u8 ‖ raw bytes. Throws RangeError for a length that does not fit the type. */
export function writeSignature(w: BorshWriter, signature: Signature): void {
  const want = SIGNATURE_LENGTH[signature.keyType];
  if (want === undefined) throw new RangeError(`unknown signature key type ${String(signature.keyType)}`);
  if (signature.data.length !== want) {
    throw new RangeError(
      `${NAMES[signature.keyType]} signature must be ${want} bytes, got ${signature.data.length}`,
    );
  }
  w.u8(signature.keyType).fixed(signature.data);
}
