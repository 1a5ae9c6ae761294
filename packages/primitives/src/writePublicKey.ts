import type { BorshWriter } from "./borshWriter.js";
import { PUBLIC_KEY_LENGTH, type PublicKey } from "./publicKey.js";

const LENGTH: Readonly<Record<number, number>> = PUBLIC_KEY_LENGTH;

/**
 * Borsh PublicKey (key type u8 ‖ data). Unlike `publicKeyToBorsh` it checks the data length,
 * so a malformed key object cannot produce bytes our own decoder would refuse.
 */
export function writePublicKey(w: BorshWriter, key: PublicKey): void {
  const len = LENGTH[key.keyType];
  if (len === undefined) throw new RangeError(`unknown public key type ${String(key.keyType)}`);
  if (key.data.length !== len)
    throw new RangeError(`public key of type ${key.keyType} must be ${len} bytes, got ${key.data.length}`);
  w.u8(key.keyType).fixed(key.data);
}
