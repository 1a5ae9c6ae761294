import { ShardkitError } from "./ShardkitError.js";
import { Base58Error, base58Decode, base58Encode } from "./base58.js";

/** Key types as numbered in nearcore's borsh encoding. */
export const KeyType = { ED25519: 0, SECP256K1: 1 } as const;
export type KeyType = (typeof KeyType)[keyof typeof KeyType];

/** A public key: its type and raw data (ed25519: 32 bytes; secp256k1: 64 bytes, no 0x04). */
export interface PublicKey {
  readonly keyType: KeyType;
  readonly data: Uint8Array;
}

const NAMES: Record<KeyType, string> = { 0: "ed25519", 1: "secp256k1" };
const DATA_LEN: Record<KeyType, number> = { 0: 32, 1: 64 };

/** Thrown for a public key string or borsh form that cannot be parsed. */
export class PublicKeyError extends ShardkitError<"INVALID_PUBLIC_KEY"> {
  override readonly name = "PublicKeyError";
  constructor(message: string) {
    super("INVALID_PUBLIC_KEY", message);
  }
}

/**
 * Parses "ed25519:<base58>" / "secp256k1:<base58>". As in nearcore, the type prefix is
 * case-insensitive and a string without ':' is read as ed25519.
 */
export function parsePublicKey(text: string): PublicKey {
  const colon = text.indexOf(":");
  let keyType: KeyType;
  let data: string;
  if (colon < 0) {
    keyType = KeyType.ED25519;
    data = text;
  } else {
    const prefix = text.slice(0, colon).toLowerCase();
    if (prefix === "ed25519") keyType = KeyType.ED25519;
    else if (prefix === "secp256k1") keyType = KeyType.SECP256K1;
    else throw new PublicKeyError(`unknown key type ${JSON.stringify(text.slice(0, colon))}`);
    data = text.slice(colon + 1);
  }
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(data);
  } catch (e) {
    if (e instanceof Base58Error) throw new PublicKeyError(`public key data: ${e.message}`);
    throw e;
  }
  if (bytes.length !== DATA_LEN[keyType]) {
    throw new PublicKeyError(
      `${NAMES[keyType]} public key must be ${DATA_LEN[keyType]} bytes, got ${bytes.length}`,
    );
  }
  return { keyType, data: bytes };
}

/** Formats a key as "<type>:<base58 data>" (always the lower-case type name). */
export function formatPublicKey(key: PublicKey): string {
  return `${NAMES[key.keyType]}:${base58Encode(key.data)}`;
}

/** Borsh form: key type u8 ‖ data (33 bytes for ed25519, 65 for secp256k1). */
export function publicKeyToBorsh(key: PublicKey): Uint8Array {
  const out = new Uint8Array(1 + key.data.length);
  out[0] = key.keyType;
  out.set(key.data, 1);
  return out;
}

/** Reads a borsh public key at `offset`; returns the key and the number of bytes read. */
export function publicKeyFromBorsh(bytes: Uint8Array, offset = 0): { key: PublicKey; read: number } {
  const tag = bytes[offset];
  if (tag !== KeyType.ED25519 && tag !== KeyType.SECP256K1) {
    throw new PublicKeyError(`unknown borsh key type ${String(tag)}`);
  }
  const len = DATA_LEN[tag];
  if (offset + 1 + len > bytes.length) throw new PublicKeyError("truncated borsh public key");
  return { key: { keyType: tag, data: bytes.slice(offset + 1, offset + 1 + len) }, read: 1 + len };
}
