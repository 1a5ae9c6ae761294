import { ShardkitError } from "./ShardkitError.js";
import { Base58Error, base58Decode, base58Encode } from "./base58.js";

/** Key types as numbered in nearcore's borsh encoding (ML-DSA-65 since protocol 85). */
export const KeyType = { ED25519: 0, SECP256K1: 1, MLDSA65: 2 } as const;
export type KeyType = (typeof KeyType)[keyof typeof KeyType];

/**
 * A public key: its type and raw data (ed25519: 32 bytes; secp256k1: 64 bytes, no 0x04;
 * ML-DSA-65: the 1,952-byte FIPS 204 encoded key).
 */
export interface PublicKey {
  readonly keyType: KeyType;
  readonly data: Uint8Array;
}

/** nearcore's names of the key types, as in "<name>:<base58>". */
export const KEY_TYPE_NAMES: Readonly<Record<KeyType, string>> = { 0: "ed25519", 1: "secp256k1", 2: "ml-dsa-65" };
/** Raw public key length per key type. */
export const PUBLIC_KEY_LENGTH: Readonly<Record<KeyType, number>> = { 0: 32, 1: 64, 2: 1952 };
const NAMES = KEY_TYPE_NAMES;
const DATA_LEN = PUBLIC_KEY_LENGTH;

/**
 * The key type named by a string prefix: case-insensitive, as nearcore's `KeyType::from_str`.
 * `ml-dsa-65-hash` is not a key type (it names an access key's on-trie handle).
 */
export function keyTypeFromName(name: string): KeyType | undefined {
  switch (name.toLowerCase()) {
    case "ed25519":
      return KeyType.ED25519;
    case "secp256k1":
      return KeyType.SECP256K1;
    case "ml-dsa-65":
      return KeyType.MLDSA65;
    default:
      return undefined;
  }
}

/** Thrown for a public key string or borsh form that cannot be parsed. */
export class PublicKeyError extends ShardkitError<"INVALID_PUBLIC_KEY"> {
  override readonly name = "PublicKeyError";
  constructor(message: string) {
    super("INVALID_PUBLIC_KEY", message);
  }
}

/**
 * Parses "ed25519:<base58>" / "secp256k1:<base58>" / "ml-dsa-65:<base58>". As in nearcore, the
 * type prefix is case-insensitive and a string without ':' is read as ed25519.
 */
export function parsePublicKey(text: string): PublicKey {
  const colon = text.indexOf(":");
  let keyType: KeyType;
  let data: string;
  if (colon < 0) {
    keyType = KeyType.ED25519;
    data = text;
  } else {
    const named = keyTypeFromName(text.slice(0, colon));
    if (named === undefined) throw new PublicKeyError(`unknown key type ${JSON.stringify(text.slice(0, colon))}`);
    keyType = named;
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

/** Borsh form: key type u8 ‖ data (33 bytes for ed25519, 65 for secp256k1, 1,953 for ML-DSA-65). */
export function publicKeyToBorsh(key: PublicKey): Uint8Array {
  const out = new Uint8Array(1 + key.data.length);
  out[0] = key.keyType;
  out.set(key.data, 1);
  return out;
}

/** Reads a borsh public key at `offset`; returns the key and the number of bytes read. */
export function publicKeyFromBorsh(bytes: Uint8Array, offset = 0): { key: PublicKey; read: number } {
  const tag = bytes[offset];
  // Tag 3 is nearcore's ML-DSA-65 key handle (PublicKeyHandle), never a PublicKey.
  if (tag !== KeyType.ED25519 && tag !== KeyType.SECP256K1 && tag !== KeyType.MLDSA65) {
    throw new PublicKeyError(`unknown borsh key type ${String(tag)}`);
  }
  const len = DATA_LEN[tag];
  if (offset + 1 + len > bytes.length) throw new PublicKeyError("truncated borsh public key");
  return { key: { keyType: tag, data: bytes.slice(offset + 1, offset + 1 + len) }, read: 1 + len };
}
