import { BorshReader } from "@shardkit/primitives/borshReader";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { CRYPTO_HASH_LEN, type CryptoHash } from "./cryptoHash.js";
import { U128_MAX, U64_MAX } from "./integerLimits.js";

/** A global contract an account uses: nearcore `AccountContract::Global(hash)` / `GlobalByAccount(id)`. */
export type GlobalContractRef =
  | { readonly kind: "CodeHash"; readonly codeHash: Uint8Array }
  | { readonly kind: "AccountId"; readonly accountId: string };

/**
 * An account as stored in state: nearcore `Account` V1 (borsh without a version tag) or, once
 * it uses a global contract, V2 (see {@link encodeAccount}).
 */
export interface Account {
  /** Liquid balance, yoctoNEAR. */
  readonly amount: bigint;
  /** Staked balance, yoctoNEAR. */
  readonly locked: bigint;
  /** sha256 of the locally deployed code; all zeros when there is none (also for a global contract). */
  readonly codeHash: CryptoHash;
  /** Bytes of state the account pays storage staking for. */
  readonly storageUsage: number;
  /** The global contract the account runs, when it uses one (then it has no local code). */
  readonly globalContract?: GlobalContractRef | undefined;
  /**
   * Stored as nearcore AccountV2. nearcore keeps an account V2 once it was (a later local
   * deploy stores `Local(hash)` in V2), so this stays true after the global contract is gone.
   */
  readonly v2?: boolean | undefined;
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

/*
 * nearcore AccountV2 (core/primitives-core/src/account.rs): the u128 sentinel u128::MAX (no
 * real balance reaches it) ‖ BorshVersionedAccount tag 0 (V2) ‖ amount u128 ‖ locked u128 ‖
 * storage_usage u64 ‖ AccountContract {0 None, 1 Local(hash), 2 Global(hash),
 * 3 GlobalByAccount(account id)}.
 */
const V2_SENTINEL = U128_MAX;
const V2_TAG = 0;
const CONTRACT_TAG = { None: 0, Local: 1, Global: 2, GlobalByAccount: 3 } as const;
const ZERO_HASH = new Uint8Array(CRYPTO_HASH_LEN);

function isV2(account: Account): boolean {
  return account.v2 === true || account.globalContract !== undefined;
}

function encodeV2(account: Account): Uint8Array {
  const w = new BorshWriter().u128(V2_SENTINEL).u8(V2_TAG).u128(account.amount).u128(account.locked).u64(BigInt(account.storageUsage));
  const g = account.globalContract;
  if (g?.kind === "CodeHash") w.u8(CONTRACT_TAG.Global).fixed(g.codeHash);
  else if (g?.kind === "AccountId") w.u8(CONTRACT_TAG.GlobalByAccount).string(g.accountId);
  else if (account.codeHash.some((b) => b !== 0)) w.u8(CONTRACT_TAG.Local).fixed(account.codeHash);
  else w.u8(CONTRACT_TAG.None);
  return w.toBytes();
}

/** The account's borsh bytes (a fresh array). */
export function encodeAccount(account: Account): Uint8Array {
  if (isV2(account)) return encodeV2(account);
  encodeInScratch(account);
  return new Uint8Array(SCRATCH);
}

/** The account as the state trie stores it: its borsh bytes as a latin1 string. */
export function accountStateValue(account: Account): string {
  if (isV2(account)) return Buffer.from(encodeV2(account)).toString("latin1");
  encodeInScratch(account);
  return SCRATCH.toString("latin1");
}

export function decodeAccount(bytes: Uint8Array): Account {
  const r = new BorshReader(bytes);
  const first = r.u128();
  if (first !== V2_SENTINEL) {
    const account: Account = { amount: first, locked: r.u128(), codeHash: r.fixed(CRYPTO_HASH_LEN), storageUsage: Number(r.u64()) };
    r.end();
    return account;
  }
  if (r.u8() !== V2_TAG) throw new RangeError("unknown account version");
  const amount = r.u128();
  const locked = r.u128();
  const storageUsage = Number(r.u64());
  const tag = r.u8();
  let account: Account;
  if (tag === CONTRACT_TAG.None) account = { amount, locked, codeHash: ZERO_HASH, storageUsage, v2: true };
  else if (tag === CONTRACT_TAG.Local) account = { amount, locked, codeHash: r.fixed(CRYPTO_HASH_LEN), storageUsage, v2: true };
  else if (tag === CONTRACT_TAG.Global) {
    account = { amount, locked, codeHash: ZERO_HASH, storageUsage, v2: true, globalContract: { kind: "CodeHash", codeHash: r.fixed(CRYPTO_HASH_LEN) } };
  } else if (tag === CONTRACT_TAG.GlobalByAccount) {
    account = { amount, locked, codeHash: ZERO_HASH, storageUsage, v2: true, globalContract: { kind: "AccountId", accountId: r.string() } };
  } else throw new RangeError(`unknown AccountContract tag ${tag}`);
  r.end();
  return account;
}

/** Storage usage from an account's stored bytes (V1: at byte 64; V2: at byte 49), without a full decode. */
export function storageUsageOfStored(raw: string): number {
  let v2 = raw.length > 48;
  for (let i = 0; v2 && i < 16; i++) v2 = raw.charCodeAt(i) === 0xff;
  const at = v2 ? 49 : 64;
  let usage = 0;
  for (let i = at + 7; i >= at; i--) usage = usage * 256 + raw.charCodeAt(i);
  return usage;
}
