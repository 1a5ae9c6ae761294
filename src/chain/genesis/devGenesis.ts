import { ZERO_HASH } from "../primitives/cryptoHash.js";
import { bytesToLatin1 } from "../primitives/latin1.js";
import { sha256 } from "../primitives/sha256.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import { devKeyPair } from "./devKey.js";
import { fixtureContractCode, type FixtureContract } from "./fixtureContractCode.js";
import { ftInitState, nftInitState, stakingPoolInitState, type ContractEntry } from "./fixtureContractState.js";
import { GenesisStateBuilder, type GenesisState } from "./GenesisStateBuilder.js";
import type { StateRecord } from "./stateRecord.js";

/** A funded dev account with its deterministic full-access key. */
export interface DevAccount {
  readonly accountId: string;
  readonly amount: bigint;
  /** "ed25519:…" */
  readonly publicKey: string;
  /** NEAR secret key string "ed25519:…" (seed ‖ public key). */
  readonly secretKey: string;
}

const NEAR = 10n ** 24n;

export const KV_ACCOUNT = "kv.test.near";
export const FT_ACCOUNT = "ft.test.near";
export const NFT_ACCOUNT = "nft.test.near";
export const POOL_ACCOUNT = "pool.test.near";
export const RELAY_ACCOUNT = "relay.test.near";

/**
 * What the block producer (test.near) has locked as its validator stake, as nearcore's localnet
 * genesis gives its validator one: light clients accept a block only when validators holding more
 * than 2/3 of the stake approved it, so a zero stake would make the dev chain unverifiable.
 */
export const DEV_VALIDATOR_STAKE = 50_000n * NEAR;

/** The dev chain's accounts: the root, three users and the fixture contracts (contracts/). */
export const DEV_ACCOUNT_BALANCES: readonly (readonly [string, bigint])[] = [
  ["test.near", 1_000_000_000n * NEAR],
  ["alice.test.near", 10_000n * NEAR],
  ["bob.test.near", 10_000n * NEAR],
  ["carol.test.near", 10_000n * NEAR],
  [KV_ACCOUNT, 100n * NEAR],
  [FT_ACCOUNT, 100n * NEAR],
  [NFT_ACCOUNT, 100n * NEAR],
  [POOL_ACCOUNT, 100n * NEAR],
  [RELAY_ACCOUNT, 100n * NEAR],
];

/** Which fixture contract each contract account runs. */
export const DEV_CONTRACTS: readonly (readonly [string, FixtureContract])[] = [
  [KV_ACCOUNT, "kv"],
  [FT_ACCOUNT, "ft"],
  [NFT_ACCOUNT, "nft"],
  [POOL_ACCOUNT, "staking-pool"],
  [RELAY_ACCOUNT, "relay"],
];

/** ft.test.near: 1e9 SKT (18 decimals), all held by test.near. */
export const FT_INIT = { ownerId: "test.near", totalSupply: 10n ** 27n, name: "Shardkit Token", symbol: "SKT", decimals: 18 } as const;
export const NFT_INIT = { ownerId: "test.near", name: "Shardkit NFT", symbol: "SKN" } as const;
/** pool.test.near: owned by test.near, staking with the pool's own dev key, 10% fee; set up in epoch 1. */
export const POOL_INIT = {
  ownerId: "test.near",
  stakePublicKey: devKeyPair(POOL_ACCOUNT).publicKeyString,
  rewardFeeFraction: { numerator: 10, denominator: 100 },
  epochHeight: 1n,
  accountBalance: 100n * NEAR,
} as const;

/**
 * The kv.test.near fixture: 2,101 entries, 57,824 bytes of key+value (over the 50 KB
 * view_state limit), under several prefixes, many keys with bytes >= 0x80:
 *  - "STATE"                        → "shardkit kv fixture"
 *  - "a:" + 4 decimal digits, 0..999 → 16 bytes
 *  - "b:" + u32 BE of i·2654435761 mod 2^32, i < 600 (a bijection, so distinct) → 32 bytes
 *  - "c:" + 4 hex digits, 0..399    → 24 bytes
 *  - 0xff ‖ u8 i, i < 100            → 8 bytes
 * Values (except STATE) are the first bytes of sha256(key), so tests can recompute them.
 */
export function kvFixtureEntries(): { key: Uint8Array; value: Uint8Array }[] {
  const enc = new TextEncoder();
  const out: { key: Uint8Array; value: Uint8Array }[] = [];
  const add = (key: Uint8Array, len: number) => out.push({ key, value: sha256(key).slice(0, len) });
  out.push({ key: enc.encode("STATE"), value: enc.encode("shardkit kv fixture") });
  for (let i = 0; i < 1000; i++) add(enc.encode(`a:${String(i).padStart(4, "0")}`), 16);
  for (let i = 0; i < 600; i++) {
    const key = new Uint8Array(6);
    key.set(enc.encode("b:"));
    new DataView(key.buffer).setUint32(2, Number((BigInt(i) * 2654435761n) % 2n ** 32n), false);
    add(key, 32);
  }
  for (let i = 0; i < 400; i++) add(enc.encode(`c:${i.toString(16).padStart(4, "0")}`), 24);
  for (let i = 0; i < 100; i++) add(Uint8Array.of(0xff, i), 8);
  return out;
}

/**
 * Each fixture contract's initial state, as its `new` would write it. kv.test.near keeps the raw
 * fixture entries only (readable with `get`; `list` covers keys set through the contract), so
 * its state stays exactly the documented fixture.
 */
function contractState(accountId: string): ContractEntry[] {
  switch (accountId) {
    case KV_ACCOUNT:
      return kvFixtureEntries();
    case FT_ACCOUNT:
      return ftInitState(FT_INIT);
    case NFT_ACCOUNT:
      return nftInitState(NFT_INIT.ownerId, NFT_INIT.name, NFT_INIT.symbol);
    case POOL_ACCOUNT:
      return stakingPoolInitState(POOL_INIT);
    default:
      return [];
  }
}

/** All records of the dev genesis, in a fixed order. */
export function devGenesisRecords(): { records: StateRecord[]; devAccounts: DevAccount[] } {
  const records: StateRecord[] = [];
  const devAccounts: DevAccount[] = [];
  for (const [accountId, amount] of DEV_ACCOUNT_BALANCES) {
    const key = devKeyPair(accountId);
    const locked = accountId === "test.near" ? DEV_VALIDATOR_STAKE : 0n;
    records.push({ kind: "Account", accountId, amount, locked, codeHash: ZERO_HASH });
    records.push({ kind: "AccessKey", accountId, publicKey: key.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } });
    devAccounts.push({ accountId, amount, publicKey: key.publicKeyString, secretKey: key.secretKeyString });
  }
  for (const [accountId, contract] of DEV_CONTRACTS) {
    records.push({ kind: "Contract", accountId, code: bytesToLatin1(fixtureContractCode(contract)) });
    for (const { key, value } of contractState(accountId)) {
      records.push({ kind: "Data", accountId, key: bytesToLatin1(key), value: bytesToLatin1(value) });
    }
  }
  return { records, devAccounts };
}

/** Builds the dev genesis state for a layout. */
export function buildDevGenesis(layout: ShardLayout): { state: GenesisState; devAccounts: DevAccount[] } {
  const { records, devAccounts } = devGenesisRecords();
  const builder = new GenesisStateBuilder();
  records.forEach((r, i) => builder.add(r, i));
  return { state: builder.finish(layout), devAccounts };
}
