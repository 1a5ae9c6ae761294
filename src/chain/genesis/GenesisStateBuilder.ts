import { encodeAccessKey } from "@shardkit/primitives/accessKey";
import { accountStateValue } from "../primitives/account.js";
import type { CryptoHash } from "../primitives/cryptoHash.js";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import { publicKeyHandleBorsh } from "@shardkit/primitives/publicKeyHandle";
import { sha256 } from "../primitives/sha256.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import { accessKeysPrefix, accountTrieKey, contractCodeTrieKey, contractDataPrefix, withTail } from "../store/trieKeys.js";
import { flatConcat } from "../store/flatConcat.js";
import { GenesisError } from "./GenesisError.js";
import { sortByKey } from "./sortByKey.js";
import type { StateRecord } from "./stateRecord.js";
import {
  STORAGE_NUM_BYTES_ACCOUNT,
  accessKeyStorageUsage,
  codeStorageUsage,
  dataStorageUsage,
} from "./storageUsage.js";
import { at, int32At } from "../must.js";

/** Sorted trie contents of one shard. */
export interface ShardEntries {
  readonly keys: string[];
  readonly values: string[];
}

/** Genesis state ready to be loaded into per-shard tries. */
export interface GenesisState {
  /** By shard index (shard order). */
  readonly shards: ShardEntries[];
  /** Sum of amount + locked over all accounts. */
  readonly totalSupply: bigint;
  readonly accountCount: number;
  readonly recordCount: number;
}

export interface AccountAggregate {
  readonly id: string; // one shared string instance for all of the account's entries
  /** Position in order of first appearance. */
  readonly ordinal: number;
  account: { amount: bigint; locked: bigint; codeHash: CryptoHash; index: number } | undefined;
  contractHash: CryptoHash | undefined;
  contractIndex: number;
  usage: number;
  firstIndex: number;
  firstKind: string;
  dataPrefix: string | undefined;
}

/**
 * Turns a stream of genesis records into per-shard sorted trie entries. Records are folded
 * in as they arrive (nothing per record is kept but its trie key and value); account
 * values are written at the end because their storage usage and code hash are recomputed
 * from all of the account's records. The shard layout is only needed at the end, so it may
 * appear anywhere in a genesis file.
 */
export class GenesisStateBuilder {
  private readonly keys: string[] = [];
  private readonly values: string[] = [];
  private readonly owners: AccountAggregate[] = [];
  private readonly recordIndex: number[] = [];
  private readonly accounts = new Map<string, AccountAggregate>();
  /** Accounts by ordinal. */
  protected readonly ordered: AccountAggregate[] = [];
  protected records = 0;

  private aggregate(accountId: string, index: number, kind: string): AccountAggregate {
    let agg = this.accounts.get(accountId);
    if (agg === undefined) {
      agg = {
        id: accountId,
        ordinal: this.ordered.length,
        account: undefined,
        contractHash: undefined,
        contractIndex: -1,
        usage: 0,
        firstIndex: index,
        firstKind: kind,
        dataPrefix: undefined,
      };
      this.accounts.set(accountId, agg);
      this.ordered.push(agg);
    }
    return agg;
  }

  /** Takes one trie entry (overridden by builders that keep entries elsewhere). */
  protected push(key: string, value: string, owner: AccountAggregate, index: number): void {
    this.keys.push(key);
    this.values.push(value);
    this.owners.push(owner);
    this.recordIndex.push(index);
  }

  add(record: StateRecord, index: number): void {
    this.records++;
    const agg = this.aggregate(record.accountId, index, record.kind);
    switch (record.kind) {
      case "Account":
        if (agg.account !== undefined) {
          throw new GenesisError(`duplicate Account record for ${record.accountId} (first at #${agg.account.index})`, index);
        }
        agg.account = { amount: record.amount, locked: record.locked, codeHash: record.codeHash, index };
        agg.usage += STORAGE_NUM_BYTES_ACCOUNT;
        return;
      case "AccessKey":
        agg.usage += accessKeyStorageUsage(record.publicKey, record.accessKey);
        this.push(
          withTail(accessKeysPrefix(agg.id), publicKeyHandleBorsh(record.publicKey)),
          bytesToLatin1(encodeAccessKey(record.accessKey)),
          agg,
          index,
        );
        return;
      case "Data":
        agg.dataPrefix ??= contractDataPrefix(agg.id);
        agg.usage += dataStorageUsage(record.key.length, record.value.length);
        this.push(flatConcat(agg.dataPrefix, record.key), record.value, agg, index);
        return;
      case "Contract":
        if (agg.contractHash !== undefined) {
          throw new GenesisError(`duplicate Contract record for ${record.accountId} (first at #${agg.contractIndex})`, index);
        }
        agg.contractHash = sha256(latin1ToBytes(record.code));
        agg.contractIndex = index;
        agg.usage += codeStorageUsage(record.code.length);
        this.push(contractCodeTrieKey(agg.id), record.code, agg, index);
        return;
    }
  }

  /** Checks every account has its Account record and pushes the account entries; returns the total supply. */
  protected finishAccounts(): bigint {
    const steps = this.pushAccounts();
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
    }
  }

  /** finishAccounts one account at a time: yields after each account entry is pushed (a streamed load may wait there). */
  protected *pushAccounts(): Generator<void, bigint> {
    let totalSupply = 0n;
    for (const agg of this.accounts.values()) {
      if (agg.account === undefined) {
        throw new GenesisError(`${agg.firstKind} record for ${agg.id}, which has no Account record`, agg.firstIndex);
      }
      const { amount, locked, codeHash, index } = agg.account;
      totalSupply += amount + locked;
      // A Contract record defines the code hash; without one the file's code_hash stands.
      const account = { amount, locked, codeHash: agg.contractHash ?? codeHash, storageUsage: agg.usage };
      this.push(accountTrieKey(agg.id), accountStateValue(account), agg, index);
      yield;
    }
    return totalSupply;
  }

  /** Number of accounts seen. */
  get accountCount(): number {
    return this.accounts.size;
  }

  finish(layout: ShardLayout): GenesisState {
    const totalSupply = this.finishAccounts();

    // Shard of every entry, then each shard's entry indices sorted by trie key.
    const shardOfEntry = new Int32Array(this.keys.length);
    const sizes = new Int32Array(layout.numShards);
    const shardOfAccount = new Map<AccountAggregate, number>();
    for (let i = 0; i < this.keys.length; i++) {
      const owner = at(this.owners, i);
      let shard = shardOfAccount.get(owner);
      if (shard === undefined) {
        shard = layout.shardIndexOf(owner.id);
        shardOfAccount.set(owner, shard);
      }
      shardOfEntry[i] = shard;
      sizes[shard]!++;
    }
    const perShard = Array.from(sizes, (n) => ({ order: new Int32Array(n), fill: 0 }));
    for (let i = 0; i < this.keys.length; i++) {
      const s = at(perShard, int32At(shardOfEntry, i));
      s.order[s.fill++] = i;
    }

    const keys = this.keys;
    const shards = perShard.map(({ order }): ShardEntries => {
      sortByKey(keys, order);
      const outKeys: string[] = new Array<string>(order.length);
      const outValues: string[] = new Array<string>(order.length);
      for (let j = 0; j < order.length; j++) {
        const i = int32At(order, j);
        if (j > 0 && keys[int32At(order, j - 1)] === keys[i]) {
          const first = at(this.recordIndex, int32At(order, j - 1));
          const second = at(this.recordIndex, i);
          throw new GenesisError(`writes the same state key as record #${Math.min(first, second)}`, Math.max(first, second));
        }
        outKeys[j] = at(keys, i);
        outValues[j] = at(this.values, i);
      }
      return { keys: outKeys, values: outValues };
    });
    return { shards, totalSupply, accountCount: this.accounts.size, recordCount: this.records };
  }
}
