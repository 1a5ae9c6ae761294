import { BorshReader } from "./borshReader.js";
import { BorshWriter } from "./borshWriter.js";
import { CRYPTO_HASH_LEN, type CryptoHash } from "./cryptoHash.js";

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

/** borsh: amount u128 ‖ locked u128 ‖ code_hash [32] ‖ storage_usage u64 (72 bytes). */
export function encodeAccount(account: Account): Uint8Array {
  if (account.codeHash.length !== CRYPTO_HASH_LEN) throw new RangeError("code hash must be 32 bytes");
  return new BorshWriter()
    .u128(account.amount)
    .u128(account.locked)
    .fixed(account.codeHash)
    .u64(account.storageUsage)
    .toBytes();
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
