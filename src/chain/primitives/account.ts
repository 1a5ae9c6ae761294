import { BorshReader } from "./borshReader.js";
import { CRYPTO_HASH_LEN, type CryptoHash } from "./cryptoHash.js";
import { U128_MAX, U64_MAX } from "./integerLimits.js";

/** An account as stored in state (nearcore `Account` V1, borsh without a version tag). */
export interface Account {
  /** Liquid balance, yoctoNEAR. */
  readonly amount: bigint;
  /** Staked balance, yoctoNEAR. */
  readonly locked: bigint;
  /** sha256 of the deployed code; all zeros when there is none. */
  readonly codeHash: CryptoHash;
  /** Bytes of state the account pays storage staking for. */
  readonly storageUsage: number;
}

/** Length of a borsh-encoded account. */
const ACCOUNT_BYTES = 72;

/**
 * Where accounts are encoded: one reused buffer, because every receipt writes two or three
 * accounts and a fresh ArrayBuffer (or a growing BorshWriter) per write showed in profiles.
 */
const SCRATCH = Buffer.allocUnsafe(ACCOUNT_BYTES);
const SCRATCH_VIEW = new DataView(SCRATCH.buffer, SCRATCH.byteOffset, ACCOUNT_BYTES);

/** borsh: amount u128 ‖ locked u128 ‖ code_hash [32] ‖ storage_usage u64 (72 bytes), into SCRATCH. */
function encodeInScratch(account: Account): void {
  const { amount, locked, codeHash, storageUsage } = account;
  if (amount < 0n || amount > U128_MAX) throw new RangeError(`u128 out of range: ${amount}`);
  if (locked < 0n || locked > U128_MAX) throw new RangeError(`u128 out of range: ${locked}`);
  if (codeHash.length !== CRYPTO_HASH_LEN) throw new RangeError("code hash must be 32 bytes");
  if (!Number.isSafeInteger(storageUsage) || storageUsage < 0) throw new RangeError(`u64 out of range: ${storageUsage}`);
  SCRATCH_VIEW.setBigUint64(0, amount & U64_MAX, true);
  SCRATCH_VIEW.setBigUint64(8, amount >> 64n, true);
  SCRATCH_VIEW.setBigUint64(16, locked & U64_MAX, true);
  SCRATCH_VIEW.setBigUint64(24, locked >> 64n, true);
  SCRATCH.set(codeHash, 32);
  SCRATCH_VIEW.setUint32(64, storageUsage % 2 ** 32, true);
  SCRATCH_VIEW.setUint32(68, Math.floor(storageUsage / 2 ** 32), true);
}

/** The account's borsh bytes (a fresh array). */
export function encodeAccount(account: Account): Uint8Array {
  encodeInScratch(account);
  return new Uint8Array(SCRATCH);
}

/** The account as the state trie stores it: its borsh bytes as a latin1 string. */
export function accountStateValue(account: Account): string {
  encodeInScratch(account);
  return SCRATCH.toString("latin1");
}

export function decodeAccount(bytes: Uint8Array): Account {
  const r = new BorshReader(bytes);
  const account: Account = {
    amount: r.u128(),
    locked: r.u128(),
    codeHash: r.fixed(CRYPTO_HASH_LEN),
    storageUsage: Number(r.u64()),
  };
  r.end();
  return account;
}
