import type { Block } from "../blocks/Block.js";
import { GenesisError } from "../genesis/GenesisError.js";
import { parseStateRecord, type StateRecord } from "../genesis/stateRecord.js";
import { STORAGE_NUM_BYTES_ACCOUNT, accessKeyStorageUsage, codeStorageUsage, dataStorageUsage } from "../genesis/storageUsage.js";
import { encodeAccessKey, type AccessKey } from "../primitives/accessKey.js";
import { decodeAccount, type Account } from "../primitives/account.js";
import { ZERO_HASH, type CryptoHash } from "../primitives/cryptoHash.js";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import type { PublicKey } from "../primitives/publicKey.js";
import { sha256 } from "../primitives/sha256.js";
import type { StateChange } from "../state/stateChange.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { accessKeyTrieKey, accountTrieKey, contractCodeTrieKey, contractDataTrieKey } from "../store/trieKeys.js";

/** The part of the chain a patch needs. */
export interface PatchableChain {
  head(): Block;
  shardOf(accountId: string): number;
  stateAt(block: Block, shardId: number): StateSnapshot;
  stage(changes: readonly StateChange[]): void;
  produceBlock(): Block;
}

/** A record that cannot be patched (bad shape or value, or no account to hold it); nothing was written. */
export class PatchRecordError extends Error {
  override readonly name = "PatchRecordError";
  constructor(
    readonly recordIndex: number,
    reason: string,
  ) {
    super(`records[${recordIndex}]: ${reason}`);
  }
}

/** One account's state as the patch leaves it: its writes and its storage usage delta. */
interface PatchedAccount {
  readonly state: StateSnapshot;
  /** The account record in state before the patch. */
  readonly before: Account | undefined;
  /** amount/locked from the last Account record of the patch. */
  balances: { amount: bigint; locked: bigint } | undefined;
  /** Trie key → latin1 value, the account's own record aside. */
  readonly writes: Map<string, string>;
  readonly changes: StateChange[];
  usageDelta: number;
  newCodeHash: CryptoHash | undefined;
  /** First record of the patch for this account (for messages). */
  readonly firstIndex: number;
}

/**
 * Applies near-sandbox `sandbox_patch_state` records (nearcore genesis `StateRecord`s:
 * Account, AccessKey, Contract, Data) to the head state and produces the block that holds
 * them, so they are visible once this returns. Unlike nearcore, each patched account stays
 * consistent: storage usage is the account's usage before plus what the patch added or
 * replaced (nearcore's genesis accounting), the code hash follows the code in state, and a
 * record for an account that exists neither before nor in the patch is refused.
 * All records are checked before anything is staged, so a refused patch writes nothing.
 */
export function patchState(chain: PatchableChain, records: readonly unknown[]): Block {
  const head = chain.head();
  const accounts = new Map<string, PatchedAccount>();
  const accountFor = (accountId: string, index: number): PatchedAccount => {
    let entry = accounts.get(accountId);
    if (entry === undefined) {
      const state = chain.stateAt(head, chain.shardOf(accountId));
      const raw = state.get(accountTrieKey(accountId));
      entry = {
        state,
        before: raw === undefined ? undefined : decodeAccount(latin1ToBytes(raw)),
        balances: undefined,
        writes: new Map(),
        changes: [],
        usageDelta: 0,
        newCodeHash: undefined,
        firstIndex: index,
      };
      accounts.set(accountId, entry);
    }
    return entry;
  };
  /** Replaces the value under `key`, returning the previous value's length (undefined when absent). */
  const write = (entry: PatchedAccount, key: string, value: string): number | undefined => {
    const previous = entry.writes.get(key) ?? entry.state.get(key);
    entry.writes.set(key, value);
    return previous?.length;
  };

  records.forEach((json, index) => {
    const record = parse(json, index);
    const entry = accountFor(record.accountId, index);
    switch (record.kind) {
      case "Account":
        entry.balances = { amount: record.amount, locked: record.locked };
        return;
      case "AccessKey":
        return patchAccessKey(entry, record.accountId, record.publicKey, record.accessKey, write);
      case "Data": {
        const key = contractDataTrieKey(record.accountId, latin1ToBytes(record.key));
        const before = write(entry, key, record.value);
        const keyLength = record.key.length;
        entry.usageDelta += dataStorageUsage(keyLength, record.value.length) - (before === undefined ? 0 : dataStorageUsage(keyLength, before));
        entry.changes.push({ type: "data", accountId: record.accountId, key: latin1ToBytes(record.key), value: latin1ToBytes(record.value) });
        return;
      }
      case "Contract": {
        const before = write(entry, contractCodeTrieKey(record.accountId), record.code);
        const code = latin1ToBytes(record.code);
        entry.usageDelta += codeStorageUsage(code.length) - (before ?? 0);
        entry.newCodeHash = sha256(code);
        entry.changes.push({ type: "code", accountId: record.accountId, code });
        return;
      }
    }
  });

  const changes: StateChange[] = [];
  for (const [accountId, entry] of accounts) {
    if (entry.before === undefined && entry.balances === undefined) {
      throw new PatchRecordError(entry.firstIndex, `account ${accountId} does not exist; add an Account record for it to the patch`);
    }
    const base = entry.before ?? { amount: 0n, locked: 0n, codeHash: ZERO_HASH, storageUsage: STORAGE_NUM_BYTES_ACCOUNT };
    const account: Account = {
      amount: entry.balances?.amount ?? base.amount,
      locked: entry.balances?.locked ?? base.locked,
      codeHash: entry.newCodeHash ?? base.codeHash,
      storageUsage: base.storageUsage + entry.usageDelta,
    };
    changes.push(...entry.changes, { type: "account", accountId, account });
  }
  if (changes.length === 0) return head;
  chain.stage(changes);
  return chain.produceBlock();
}

function patchAccessKey(
  entry: PatchedAccount,
  accountId: string,
  publicKey: PublicKey,
  accessKey: AccessKey,
  write: (entry: PatchedAccount, key: string, value: string) => number | undefined,
): void {
  const encoded = encodeAccessKey(accessKey);
  const before = write(entry, accessKeyTrieKey(accountId, publicKey), bytesToLatin1(encoded));
  // accessKeyStorageUsage = 1 + key bytes + encoded access key + 40: a replaced key gives back its own encoded length.
  entry.usageDelta += accessKeyStorageUsage(publicKey, accessKey) - (before === undefined ? 0 : accessKeyStorageUsage(publicKey, accessKey) - encoded.length + before);
  entry.changes.push({ type: "accessKey", accountId, publicKey, accessKey });
}

/** A JSON record as nearcore's StateRecord, or PatchRecordError naming it. */
function parse(json: unknown, index: number): StateRecord {
  try {
    return parseStateRecord(json, index);
  } catch (error) {
    if (error instanceof GenesisError) throw new PatchRecordError(index, error.message.replace(/^genesis record #\d+: /, ""));
    throw error;
  }
}
