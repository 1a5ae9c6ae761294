import { isValidAccountId } from "./accountId.js";
import { BorshReader } from "./borshReader.js";
import { KeyType, PUBLIC_KEY_LENGTH, type PublicKey } from "./publicKey.js";
import { SIGNATURE_LENGTH, type Signature } from "./signature.js";
import { TransactionDecodeError } from "./TransactionDecodeError.js";

// One shared decoder: `fatal` rejects invalid UTF-8 as Rust's String does, and `ignoreBOM`
// keeps a leading U+FEFF so re-encoding gives back the same bytes.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Shortens attacker-controlled text before it goes into an error message. */
function quote(text: string): string {
  return JSON.stringify(text.length > 70 ? `${text.slice(0, 64)}…` : text);
}

/**
 * A bounds-checked view over {@link BorshReader} for transaction decoding. It checks every
 * length against the bytes that remain *before* reading or allocating, so a forged length
 * can never cause a large allocation, and it reports every failure as a
 * {@link TransactionDecodeError} naming the field (`what`) being read.
 */
export class TxReader {
  private readonly r: BorshReader;

  constructor(private readonly bytes: Uint8Array) {
    this.r = new BorshReader(bytes);
  }

  get position(): number {
    return this.r.position;
  }

  get remaining(): number {
    return this.bytes.length - this.r.position;
  }

  /** The bytes consumed so far from `start` (a view, not a copy). */
  consumedSince(start: number): Uint8Array {
    return this.bytes.subarray(start, this.r.position);
  }

  fail(reason: string, at: number = this.position): never {
    throw new TransactionDecodeError(reason, at);
  }

  private need(n: number, what: string): void {
    if (this.remaining < n) {
      this.fail(`${what}: unexpected end of data (need ${n} bytes, ${this.remaining} left)`);
    }
  }

  u8(what: string): number {
    this.need(1, what);
    return this.r.u8();
  }

  u16(what: string): number {
    this.need(2, what);
    return this.r.u16();
  }

  u32(what: string): number {
    this.need(4, what);
    return this.r.u32();
  }

  u64(what: string): bigint {
    this.need(8, what);
    return this.r.u64();
  }

  u128(what: string): bigint {
    this.need(16, what);
    return this.r.u128();
  }

  fixed(n: number, what: string): Uint8Array {
    this.need(n, what);
    return this.r.fixed(n);
  }

  /** Vec<u8>: u32 length ‖ bytes. */
  bytesVec(what: string): Uint8Array {
    const at = this.position;
    const len = this.u32(what);
    if (len > this.remaining)
      this.fail(`${what}: length ${len} exceeds the ${this.remaining} bytes left`, at);
    return this.r.fixed(len);
  }

  string(what: string): string {
    const at = this.position;
    const raw = this.bytesVec(what);
    try {
      return UTF8.decode(raw);
    } catch {
      return this.fail(`${what}: invalid UTF-8`, at);
    }
  }

  /** An AccountId: nearcore validates account ids while deserializing, so do we. */
  accountId(what: string): string {
    const at = this.position;
    const id = this.string(what);
    if (!isValidAccountId(id)) this.fail(`${what}: invalid account id ${quote(id)}`, at);
    return id;
  }

  /** Option tag: borsh accepts only 0 (None) and 1 (Some). */
  option(what: string): boolean {
    const at = this.position;
    const tag = this.u8(what);
    if (tag > 1) this.fail(`${what}: invalid Option tag ${tag}`, at);
    return tag === 1;
  }

  /**
   * A Vec length, refused when even the smallest possible items (`minItemBytes` each) could
   * not fit in what remains: this turns a forged 4-billion count into an immediate error.
   */
  vecLength(what: string, minItemBytes: number): number {
    const at = this.position;
    const n = this.u32(what);
    if (n * minItemBytes > this.remaining) {
      this.fail(`${what}: declares ${n} items but only ${this.remaining} bytes remain`, at);
    }
    return n;
  }

  /** PublicKey: key type u8 ‖ 32 (ed25519), 64 (secp256k1) or 1,952 (ML-DSA-65) bytes. */
  publicKey(what: string): PublicKey {
    const at = this.position;
    const keyType = this.u8(what);
    const len = PUBLIC_KEY_LENGTH[keyType as KeyType];
    if (len === undefined) this.fail(`${what}: unsupported key type ${keyType}`, at);
    return { keyType: keyType as KeyType, data: this.fixed(len, what) };
  }

  /** Signature: key type u8 ‖ 64 (ed25519), 65 (secp256k1) or 3,309 (ML-DSA-65) bytes. */
  signature(what: string): Signature {
    const at = this.position;
    const keyType = this.u8(what);
    const len = SIGNATURE_LENGTH[keyType as KeyType];
    if (len === undefined) this.fail(`${what}: unsupported signature key type ${keyType}`, at);
    const data = this.fixed(len, what);
    // nearcore keeps ed25519-dalek 1.x's sanity check on the last byte of S (high 3 bits
    // clear) at deserialization time, so such a signature is a parse error, not a bad one.
    if (keyType === KeyType.ED25519 && (data[63]! & 0xe0) !== 0)
      this.fail(`${what}: malformed ed25519 signature`, at);
    return { keyType: keyType as KeyType, data };
  }

  /** Throws unless every byte was consumed (borsh::from_slice refuses trailing bytes). */
  end(what: string): void {
    if (this.remaining !== 0) this.fail(`${what}: ${this.remaining} trailing bytes`);
  }
}
