import { sha256 } from "../primitives/sha256.js";
import { at } from "../must.js";

/**
 * Boundaries used when only a shard count is given. The first four put the dev accounts on
 * different shards (alice → 0, bob → 1, carol → 2, kv / test.near → 3, with "t" splitting
 * kv.test.near from test.near at 5 shards); more shards take the remaining letters in
 * alphabetical order. Boundaries are the single letters b..z, so at most 26 shards by default.
 */
const DEFAULT_BOUNDARY_ORDER = ["b", "c", "k", "t", ..."defghijlmnopqrsuvwxyz".split("")];

/** Default boundary accounts for `shards` shards (see DEFAULT_BOUNDARY_ORDER). */
export function defaultBoundaryAccounts(shards: number): string[] {
  if (!Number.isInteger(shards) || shards < 1) throw new RangeError(`shard count must be a positive integer, got ${shards}`);
  if (shards - 1 > DEFAULT_BOUNDARY_ORDER.length) {
    throw new RangeError(`no default layout for ${shards} shards (max ${DEFAULT_BOUNDARY_ORDER.length + 1}); pass boundaryAccounts`);
  }
  return DEFAULT_BOUNDARY_ORDER.slice(0, shards - 1).sort();
}

/**
 * Account → shard routing as in nearcore. With boundary accounts (layouts V1..V3) the shard
 * index is the number of boundaries <= account id (string comparison) and the shard id is
 * `shardIds[index]` (V1: ids are 0..n-1). A V0 layout routes by hash:
 * u64_le(sha256(account_id)[0..8]) mod num_shards.
 */
export class ShardLayout {
  readonly shardIds: readonly number[];
  private readonly indexById = new Map<number, number>();

  private constructor(
    /** Sorted boundary accounts; empty for a hash-routed (V0) layout. */
    readonly boundaryAccounts: readonly string[],
    /** "hash" only for nearcore V0 layouts. */
    readonly routing: "boundaries" | "hash",
    shardIds: readonly number[],
  ) {
    this.shardIds = shardIds;
    shardIds.forEach((id, i) => {
      if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`invalid shard id ${id}`);
      if (this.indexById.has(id)) throw new RangeError(`duplicate shard id ${id}`);
      this.indexById.set(id, i);
    });
  }

  /**
   * Layout by boundary accounts: strictly increasing, non-empty, account-id characters only.
   * Full account-id validity is not required: the default single-letter boundaries are
   * shorter than nearcore's 2-character minimum but split the name space by first letter.
   */
  static fromBoundaries(boundaryAccounts: readonly string[], shardIds?: readonly number[]): ShardLayout {
    boundaryAccounts.forEach((b, i) => {
      if (!/^[a-z0-9._-]+$/.test(b)) throw new RangeError(`invalid boundary account ${JSON.stringify(b)}`);
      if (i > 0 && !(at(boundaryAccounts, i - 1) < b)) {
        throw new RangeError(`boundary accounts must be strictly increasing: ${JSON.stringify(boundaryAccounts[i - 1])} >= ${JSON.stringify(b)}`);
      }
    });
    const ids = shardIds ?? boundaryAccounts.map((_, i) => i).concat(boundaryAccounts.length);
    if (ids.length !== boundaryAccounts.length + 1) {
      throw new RangeError(`${boundaryAccounts.length} boundary accounts need ${boundaryAccounts.length + 1} shard ids, got ${ids.length}`);
    }
    return new ShardLayout([...boundaryAccounts], "boundaries", [...ids]);
  }

  /** Default layout for a shard count (see {@link defaultBoundaryAccounts}). */
  static withShards(shards: number): ShardLayout {
    return ShardLayout.fromBoundaries(defaultBoundaryAccounts(shards));
  }

  /** nearcore V0: hash routing over `numShards` shards with ids 0..n-1. */
  static hashed(numShards: number): ShardLayout {
    if (!Number.isInteger(numShards) || numShards < 1) throw new RangeError(`invalid num_shards ${numShards}`);
    return new ShardLayout([], "hash", Array.from({ length: numShards }, (_, i) => i));
  }

  get numShards(): number {
    return this.shardIds.length;
  }

  /** Position of the account's shard in shard order (chunk order in a block). */
  shardIndexOf(accountId: string): number {
    const b = this.boundaryAccounts;
    if (this.routing === "hash") {
      const h = sha256(new TextEncoder().encode(accountId));
      const v = new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0, true);
      return Number(v % BigInt(this.shardIds.length));
    }
    // partition_point(|x| x <= account): binary search over the sorted boundaries.
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(b, mid) <= accountId) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The shard id an account lives on. */
  shardIdOf(accountId: string): number {
    return at(this.shardIds, this.shardIndexOf(accountId));
  }

  /** Index of a shard id in shard order, or undefined for an unknown id. */
  indexOfShardId(shardId: number): number | undefined {
    return this.indexById.get(shardId);
  }
}
