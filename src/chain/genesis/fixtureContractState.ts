import { BorshWriter } from "@shardkit/primitives/borshWriter";

/**
 * The state our fixture contracts' `new` writes (see contracts/src/*.ts and contracts/README.md),
 * built here so the dev genesis starts with initialised contracts. test/contracts checks each
 * against what the contract's own `new` writes.
 */
export interface ContractEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

const enc = new TextEncoder();

/** near-sdk's collection key: prefix ‖ borsh(String). */
function mapKey(prefix: string, id: string): Uint8Array {
  return new BorshWriter().fixed(enc.encode(prefix)).string(id).toBytes();
}

const u128 = (v: bigint) => new BorshWriter().u128(v).toBytes();
const entry = (key: string | Uint8Array, value: string | Uint8Array): ContractEntry => ({
  key: typeof key === "string" ? enc.encode(key) : key,
  value: typeof value === "string" ? enc.encode(value) : value,
});

export interface FtInit {
  readonly ownerId: string;
  readonly totalSupply: bigint;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

/** Bytes one FT balance record costs with a 64-character account id: key 1 + 4 + 64, value 16, + 40. */
export const FT_ACCOUNT_STORAGE_USAGE = 125n;

/** ft.new({owner_id, total_supply, metadata: {spec: "ft-1.0.0", name, symbol, decimals}}). */
export function ftInitState(init: FtInit): ContractEntry[] {
  const metadata = JSON.stringify({
    spec: "ft-1.0.0",
    name: init.name,
    symbol: init.symbol,
    icon: null,
    reference: null,
    reference_hash: null,
    decimals: init.decimals,
  });
  return [
    entry("m", metadata),
    entry("STATE", new BorshWriter().u128(init.totalSupply).u64(FT_ACCOUNT_STORAGE_USAGE).toBytes()),
    entry(mapKey("a", init.ownerId), u128(init.totalSupply)),
  ];
}

/** nft.new({owner_id, metadata: {spec: "nft-1.0.0", name, symbol}}). */
export function nftInitState(ownerId: string, name: string, symbol: string): ContractEntry[] {
  const metadata = JSON.stringify({
    spec: "nft-1.0.0",
    name,
    symbol,
    icon: null,
    base_uri: null,
    reference: null,
    reference_hash: null,
  });
  return [entry("STATE", ownerId), entry("m", metadata)];
}

export interface PoolInit {
  readonly ownerId: string;
  readonly stakePublicKey: string;
  readonly rewardFeeFraction: { readonly numerator: number; readonly denominator: number };
  /** The epoch height `new` ran in, and the pool account's balance then. */
  readonly epochHeight: bigint;
  readonly accountBalance: bigint;
}

/** staking-pool.new({owner_id, stake_public_key, reward_fee_fraction}): nothing staked yet. */
export function stakingPoolInitState(init: PoolInit): ContractEntry[] {
  const state = new BorshWriter()
    .u64(init.epochHeight)
    .u128(init.accountBalance)
    .u128(0n)
    .u128(0n)
    .u32(init.rewardFeeFraction.numerator)
    .u32(init.rewardFeeFraction.denominator)
    .string(init.ownerId)
    .string(init.stakePublicKey)
    .toBytes();
  return [entry("STATE", state)];
}
