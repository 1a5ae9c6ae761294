import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { Block } from "../blocks/Block.js";
import { GenesisError } from "../genesis/GenesisError.js";
import { parseStateRecord, type StateRecord } from "../genesis/stateRecord.js";
import { decodeAccount, type Account } from "../primitives/account.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { latin1ToBytes } from "../primitives/latin1.js";
import { sha256 } from "../primitives/sha256.js";
import type { StateChange } from "../state/stateChange.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { accountTrieKey } from "../store/trieKeys.js";

/** The part of the chain a patch needs. */
export interface PatchableChain {
  head(): Block;
  shardOf(accountId: string): number;
  stateAt(block: Block, shardId: number): StateSnapshot;
  stage(changes: readonly StateChange[]): void;
  produceBlock(): Block;
}

/** A record that cannot be patched (bad shape or value, or a Contract record nearcore would panic on); nothing was written. */
export class PatchRecordError extends ShardkitError<"INVALID_PATCH_RECORD"> {
  override readonly name = "PatchRecordError";
  constructor(
    readonly recordIndex: number,
    reason: string,
  ) {
    super("INVALID_PATCH_RECORD", `records[${recordIndex}]`, { details: reason });
  }
}

/**
 * Applies near-sandbox `sandbox_patch_state` records (nearcore genesis `StateRecord`s:
 * Account, AccessKey, Contract, Data) to the head state, in order, and produces the block that
 * holds them, so they are visible once this returns.
 *
 * As nearcore's sandbox (runtime `apply_state_patch`), every record is written as given: an
 * Account record's amount, locked, code_hash and storage_usage replace the account, and
 * AccessKey, Data and Contract records change no account's storage_usage. A Contract record
 * needs its account (in state or earlier in the patch) with the code's sha256 as code_hash:
 * nearcore panics otherwise; shardkit refuses the patch. All records are checked before
 * anything is staged, so a refused patch writes nothing.
 */
export function patchState(chain: PatchableChain, records: readonly unknown[]): Block {
  const head = chain.head();
  /** Accounts as the patch has left them so far, by id (undefined: not in state). */
  const accounts = new Map<string, Account | undefined>();
  const accountNow = (accountId: string): Account | undefined => {
    if (!accounts.has(accountId)) {
      const raw = chain.stateAt(head, chain.shardOf(accountId)).get(accountTrieKey(accountId));
      accounts.set(accountId, raw === undefined ? undefined : decodeAccount(latin1ToBytes(raw)));
    }
    return accounts.get(accountId);
  };

  const changes: StateChange[] = records.map((json, index): StateChange => {
    const record = parse(json, index);
    switch (record.kind) {
      case "Account": {
        const account: Account = { amount: record.amount, locked: record.locked, codeHash: record.codeHash, storageUsage: record.storageUsage ?? 0 };
        accounts.set(record.accountId, account);
        return { type: "account", accountId: record.accountId, account };
      }
      case "AccessKey":
        return { type: "accessKey", accountId: record.accountId, publicKey: record.publicKey, accessKey: record.accessKey };
      case "Data":
        return { type: "data", accountId: record.accountId, key: latin1ToBytes(record.key), value: latin1ToBytes(record.value) };
      case "Contract": {
        const code = latin1ToBytes(record.code);
        const account = accountNow(record.accountId);
        if (account === undefined) {
          throw new PatchRecordError(index, `account ${record.accountId} does not exist; a Contract record needs an Account record before it (nearcore panics)`);
        }
        const hash = base58Encode(sha256(code));
        if (hash !== base58Encode(account.codeHash)) {
          throw new PatchRecordError(
            index,
            `the code's hash ${hash} is not account ${record.accountId}'s code_hash ${base58Encode(account.codeHash)}; patch the account's code_hash first (nearcore panics)`,
          );
        }
        return { type: "code", accountId: record.accountId, code };
      }
    }
  });
  if (changes.length === 0) return head;
  chain.stage(changes);
  return chain.produceBlock();
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
