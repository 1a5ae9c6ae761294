import type { Block } from "../chain/blocks/Block.js";
import type { BlockCommit, Chain } from "../chain/node.js";
import type { AccessKey } from "@shardkit/primitives/accessKey";
import { base58Encode } from "@shardkit/primitives/base58";
import { base64Decode } from "../chain/primitives/base64.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { CausedStateChange } from "../chain/views/BlockStateChanges.js";
import { UnknownAccountError } from "../chain/vm/UnknownAccountError.js";
import type { BlockSource, FtPair, IndexBlockInput } from "./BlockSource.js";
import { FT_BALANCE_READ_LIMITS, ftBalanceFromOutcome, type FtBalanceReader, viewCallOf } from "./FtBalanceReader.js";
import { genesisTokenRows, type GenesisAmountRead } from "./genesisTokenRows.js";
import type { AccountStateRow, IndexBlockUpdate, KeyPermission } from "./IndexStore.js";
import type { ExecutedReceipt } from "./tokenActivity.js";

/**
 * The local chain as a BlockSource: its block commits (queued by a listener, or read back from
 * the chain store) as IndexBlockInputs, synchronously. The genesis block's input is the whole
 * genesis state and the token rows that exist from genesis.
 */
export class LocalBlockSource implements BlockSource {
  constructor(
    private readonly chain: Chain,
    /** Reads FT balances from the contracts; without one, no balance is read. */
    private readonly ftBalances?: FtBalanceReader,
  ) {}

  genesisHeight(): number {
    return this.chain.genesisBlock.height;
  }

  headHeight(): number {
    return this.chain.head().height;
  }

  block(height: number): IndexBlockInput | undefined {
    if (height === this.chain.genesisBlock.height) return this.genesis();
    const commit = this.chain.blockCommit(height);
    return commit === undefined ? undefined : this.input(commit);
  }

  /** A commit (as the chain's listener delivers it) as an input. */
  input(commit: BlockCommit): IndexBlockInput {
    const { block } = commit;
    const receipts: ExecutedReceipt[] = [];
    for (const outcome of commit.receiptOutcomes) {
      const receipt = this.executedReceipt(outcome);
      if (receipt !== undefined) receipts.push(receipt);
    }
    return {
      ...stateUpdates(commit.stateChanges.entries()),
      height: block.height,
      hash: block.hash,
      timestampNs: block.timestampNs,
      receipts,
      ...this.balanceReads(block),
    };
  }

  /**
   * Every account and access key of the genesis state, and the token rows that exist from
   * genesis (FT balances, NFT owners, pool delegators: see genesisTokenRows), which no receipt
   * will ever announce.
   */
  private genesis(): IndexBlockInput {
    const genesis = this.chain.genesisBlock;
    const records = this.chain.stateChangesInBlock(genesis);
    const accountEntries = records.entriesOf("account");
    const accounts = accountEntries.flatMap(([record]) => (record === undefined ? [] : [record.change.accountId]));
    const contracts = accounts.filter((accountId) => this.chain.at(genesis).codeLength(accountId) > 0);
    const ftRead = this.ftBalances;
    const tokens = genesisTokenRows(contracts, accounts, {
      ft: ftRead === undefined ? undefined : (contractId, _method, accountId) => ftRead(genesis, contractId, accountId) ?? "",
      other: this.genesisView(genesis),
    });
    return {
      ...stateUpdates([...accountEntries, ...records.entriesOf("accessKey")]),
      height: genesis.height,
      hash: genesis.hash,
      timestampNs: genesis.timestampNs,
      receipts: [],
      tokens,
      ...this.balanceReads(genesis),
    };
  }

  private balanceReads(block: Block): Pick<IndexBlockInput, "readFtBalances"> {
    const read = this.ftBalances;
    if (read === undefined) return {};
    return { readFtBalances: (pairs: readonly FtPair[]) => pairs.map((pair) => read(block, pair.contractId, pair.accountId)) };
  }

  /** View calls at the genesis block within the indexer's read budget. */
  private genesisView(genesis: Block): GenesisAmountRead {
    const callFunction = viewCallOf(this.chain);
    return (contractId, methodName, accountId) => {
      try {
        const args = Buffer.from(JSON.stringify({ account_id: accountId }));
        return ftBalanceFromOutcome(callFunction(genesis, contractId, methodName, args, FT_BALANCE_READ_LIMITS)) ?? "";
      } catch (error) {
        if (error instanceof UnknownAccountError) return "";
        throw error;
      }
    };
  }

  private executedReceipt(outcome: BlockCommit["receiptOutcomes"][number]): ExecutedReceipt | undefined {
    const view = this.chain.receipt(base58Encode(outcome.id));
    if (view === undefined || !("Action" in view.receipt)) return undefined;
    const calls = view.receipt.Action.actions.flatMap((action) =>
      typeof action === "object" && "FunctionCall" in action
        ? [{ methodName: action.FunctionCall.method_name, args: base64Decode(action.FunctionCall.args) }]
        : [],
    );
    return {
      predecessorId: view.predecessor_id,
      receiverId: view.receiver_id,
      calls,
      succeeded: outcome.status.kind !== "Failure",
      logs: outcome.logs,
    };
  }
}

/** Account states and access keys after the block: the last change of each account and key it changed. */
function stateUpdates(entries: readonly (readonly CausedStateChange[])[]): Pick<IndexBlockUpdate, "accountStates" | "accessKeys"> {
  const accountStates = new Map<string, AccountStateRow | null>();
  const accessKeys: IndexBlockUpdate["accessKeys"][number][] = [];
  for (const entry of entries) {
    const last = entry[entry.length - 1];
    if (last === undefined) continue;
    const { change } = last;
    if (change.type === "account") {
      const a = change.account;
      accountStates.set(change.accountId, a === null ? null : { balance: a.amount.toString(), locked: a.locked.toString(), storageBytes: a.storageUsage });
    } else if (change.type === "accessKey") {
      const publicKey = typeof change.publicKey === "string" ? change.publicKey : formatPublicKey(change.publicKey);
      accessKeys.push({ publicKey, accountId: change.accountId, permission: change.accessKey === null ? null : permissionOf(change.accessKey) });
    }
  }
  return { accountStates, accessKeys };
}

function permissionOf(key: AccessKey): KeyPermission {
  return key.permission === "FullAccess" ? "full" : "limited";
}
