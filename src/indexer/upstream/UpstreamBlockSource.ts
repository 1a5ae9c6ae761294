import { RpcResponseError } from "@shardkit/client/jsonrpc";
import type { ActionView, BlockView, ChunkResult, ExperimentalTxStatusResult, StateChangeWithCauseView } from "../../../generated/rpc/types.js";
import { base64Decode } from "../../chain/primitives/base64.js";
import type { BlockSource, FtPair, IndexBlockInput } from "../BlockSource.js";
import { ftBalanceFromOutcome } from "../FtBalanceReader.js";
import type { AccountStateRow, FtBalance, IndexBlockUpdate, KeyPermission } from "../IndexStore.js";
import type { ExecutedReceipt } from "../tokenActivity.js";
import { callUpstream, type UpstreamCall } from "./UpstreamRpc.js";

/**
 * Transactions whose receipts may still execute in later blocks: tx hash → signer. The
 * follower commits it with each block so that a new leader resumes with it.
 */
export type OpenTransactions = ReadonlyMap<string, string>;

/** The upstream's answers a block step read: the block, its new chunks' transactions (in chunk order) and the open transactions' statuses. */
export interface RpcBlockAnswers {
  readonly block: BlockView;
  readonly chunks: readonly {
    readonly shardId: number;
    readonly transactions: readonly { readonly hash: string }[];
    /** The receipts that join the chain with this chunk (nearcore's `prev_outgoing_receipts`). */
    readonly receipts: readonly ChunkResult["receipts"][number][];
  }[];
  /** By transaction hash: nearcore's EXPERIMENTAL_tx_status answer. */
  readonly statuses: ReadonlyMap<string, ExperimentalTxStatusResult>;
}

/** A block from an upstream: the index input, the transactions still open after it, and the answers it was read from (for the history). */
export interface UpstreamBlockInput extends IndexBlockInput {
  readonly open: ReadonlyMap<string, string>;
  readonly answers: RpcBlockAnswers;
}

export interface UpstreamBlockSourceOptions {
  readonly call: UpstreamCall;
  /** Concurrent calls at most per step (tx statuses, balance reads; default 8). */
  readonly concurrency?: number;
  /** Transactions open before the first block asked (the follower's committed state). */
  readonly open?: OpenTransactions;
  /** More transactions to follow at each block (the history's still executing). */
  readonly alsoFollow?: () => Iterable<readonly [string, string]>;
}

/** nearcore's answer for a height that has no block (no producer made one). */
const isUnknownBlock = (error: unknown) => error instanceof RpcResponseError && error.causeName === "UNKNOWN_BLOCK";

/** Causes meaning the token cannot answer at this block: recorded as `""`, as the in-process reader does. */
const NOT_A_BALANCE = new Set(["UNKNOWN_ACCOUNT", "NO_CONTRACT_CODE", "CONTRACT_EXECUTION_ERROR", "INVALID_ACCOUNT"]);

/**
 * An upstream nearcore node's RPC as a BlockSource: each block's input built from its answers,
 * every answer checked against the spec's result schema (callUpstream). Account states and
 * access keys come from the state changes the block made (`EXPERIMENTAL_changes_in_block`, then
 * `EXPERIMENTAL_changes` for the touched accounts); the receipts it executed from the execution
 * trees of the transactions still open (`EXPERIMENTAL_tx_status`); FT balances are read at the
 * block (`query` `call_function` `ft_balance_of`), except at genesis. Blocks are asked in height
 * order: each advances the open transactions (`open`).
 */
export class UpstreamBlockSource implements BlockSource<UpstreamBlockInput> {
  /** Transactions open after the last block given. */
  open: OpenTransactions;
  private readonly call: UpstreamCall;
  private readonly concurrency: number;
  /** Heights of blocks by hash (filled as blocks are read; misses are looked up). */
  private readonly heights = new Map<string, number>();
  private genesis: number | undefined;

  constructor(private readonly options: UpstreamBlockSourceOptions) {
    this.call = options.call;
    this.concurrency = options.concurrency ?? 8;
    this.open = options.open ?? new Map();
  }

  async genesisHeight(): Promise<number> {
    this.genesis ??= (await callUpstream(this.call, "EXPERIMENTAL_genesis_config", {})).genesis_height;
    return this.genesis;
  }

  async headHeight(): Promise<number> {
    return (await callUpstream(this.call, "block", { finality: "final" })).header.height;
  }

  async block(height: number): Promise<UpstreamBlockInput | undefined> {
    let block: BlockView;
    try {
      block = await callUpstream(this.call, "block", { block_id: height });
    } catch (error) {
      if (isUnknownBlock(error)) return undefined;
      throw error;
    }
    const hash = block.header.hash;
    this.heights.set(hash, height);
    const genesis = height === (await this.genesisHeight());

    const open = new Map([...this.open, ...(this.options.alsoFollow?.() ?? [])]);
    const newChunks = block.chunks.filter((c) => c.height_included === height);
    const chunks = await limited(this.concurrency, newChunks, async (c) => {
      const { transactions, receipts } = await callUpstream(this.call, "chunk", { chunk_id: c.chunk_hash });
      return { shardId: c.shard_id, transactions, receipts };
    });
    for (const chunk of chunks) for (const tx of chunk.transactions) open.set(tx.hash, tx.signer_id);

    const statuses = await limited(this.concurrency, [...open], async ([txHash, signerId]) => ({
      txHash,
      status: await callUpstream(this.call, "EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: signerId, wait_until: "INCLUDED_FINAL" }),
    }));
    const receipts: ExecutedReceipt[] = [];
    for (const { txHash, status } of statuses) {
      receipts.push(...executedInBlock(status, hash));
      if (await this.finishedBy(status, height)) open.delete(txHash);
    }
    this.open = open;
    return {
      ...(await this.stateUpdates(height)),
      height,
      hash,
      timestampNs: BigInt(block.header.timestamp_nanosec),
      receipts,
      ...(genesis ? {} : { readFtBalances: (pairs: readonly FtPair[]) => limited(this.concurrency, pairs, (pair) => this.readFtBalance(height, pair)) }),
      open,
      answers: { block, chunks, statuses: new Map(statuses.map(({ txHash, status }) => [txHash, status])) },
    };
  }

  /** True when every receipt of the tree has executed, in blocks at or below `height`. */
  private async finishedBy(status: ExperimentalTxStatusResult, height: number): Promise<boolean> {
    if (!("transaction_outcome" in status)) return false;
    const outcomes = [status.transaction_outcome, ...status.receipts_outcome];
    const executed = new Set(outcomes.map((o) => o.id));
    for (const o of outcomes) {
      if (o.outcome.receipt_ids.some((id) => !executed.has(id))) return false;
      if ((await this.blockHeight(o.block_hash)) > height) return false;
    }
    return true;
  }

  private async blockHeight(hash: string): Promise<number> {
    const known = this.heights.get(hash);
    if (known !== undefined) return known;
    const { height } = (await callUpstream(this.call, "block", { block_id: hash })).header;
    this.heights.set(hash, height);
    // Keeps the hash → height cache small (open transactions rarely span many blocks).
    for (const key of this.heights.keys()) {
      if (this.heights.size <= 10_000) break;
      this.heights.delete(key);
    }
    return height;
  }

  /** Account states and access keys after the block, for every account or key it wrote. */
  private async stateUpdates(height: number): Promise<Pick<IndexBlockUpdate, "accountStates" | "accessKeys">> {
    const kinds = await callUpstream(this.call, "EXPERIMENTAL_changes_in_block", { block_id: height });
    const touched = (type: string) => [...new Set(kinds.changes.filter((c) => c.type === type).map((c) => c.account_id))];
    const accountIds = touched("account_touched");
    const keyOwners = touched("access_key_touched");
    const none: readonly StateChangeWithCauseView[] = [];
    const [accountChanges, keyChanges] = await Promise.all([
      accountIds.length === 0
        ? none
        : callUpstream(this.call, "EXPERIMENTAL_changes", { changes_type: "account_changes", account_ids: accountIds, block_id: height }).then((r) => r.changes),
      keyOwners.length === 0
        ? none
        : callUpstream(this.call, "EXPERIMENTAL_changes", { changes_type: "all_access_key_changes", account_ids: keyOwners, block_id: height }).then((r) => r.changes),
    ]);
    // Each key's changes come in order: the last one is its value after the block.
    const accountStates = new Map<string, AccountStateRow | null>();
    const keys = new Map<string, { publicKey: string; accountId: string; permission: KeyPermission | null }>();
    for (const view of [...accountChanges, ...keyChanges]) {
      const accountId = view.change.account_id;
      switch (view.type) {
        case "account_update":
          accountStates.set(accountId, { balance: view.change.amount, locked: view.change.locked, storageBytes: view.change.storage_usage });
          break;
        case "account_deletion":
          accountStates.set(accountId, null);
          break;
        case "access_key_update":
        case "access_key_deletion": {
          const publicKey = view.change.public_key;
          const permission = view.type === "access_key_deletion" ? null : view.change.access_key.permission === "FullAccess" ? "full" : "limited";
          keys.set(`${accountId} ${publicKey}`, { publicKey, accountId, permission });
          break;
        }
        default:
          break;
      }
    }
    return { accountStates, accessKeys: [...keys.values()] };
  }

  /** The token's `ft_balance_of` at the block; a failed call or a non-balance answer is `""`. */
  private async readFtBalance(height: number, { contractId, accountId }: FtPair): Promise<FtBalance> {
    try {
      const answer = await callUpstream(this.call, "query", {
        request_type: "call_function",
        account_id: contractId,
        method_name: "ft_balance_of",
        args_base64: Buffer.from(JSON.stringify({ account_id: accountId })).toString("base64"),
        block_id: height,
      });
      if (!("result" in answer) || !Array.isArray(answer.result)) return "";
      return ftBalanceFromOutcome({ ok: true, result: Uint8Array.from(answer.result), logs: [] });
    } catch (error) {
      if (error instanceof RpcResponseError && NOT_A_BALANCE.has(error.causeName)) return "";
      throw error;
    }
  }
}

/** The receipts of one transaction's tree whose outcome is in block `blockHash`. */
function executedInBlock(status: ExperimentalTxStatusResult, blockHash: string): ExecutedReceipt[] {
  if (!("transaction_outcome" in status)) return [];
  const views = new Map(status.receipts.map((r) => [r.receipt_id, r]));
  const tx = status.transaction;
  const firstReceipt = status.transaction_outcome.outcome.receipt_ids[0];
  const out: ExecutedReceipt[] = [];
  for (const { id, block_hash, outcome } of status.receipts_outcome) {
    if (block_hash !== blockHash) continue;
    const view = views.get(id);
    let parts: { predecessorId: string; receiverId: string; actions: readonly ActionView[] } | undefined;
    if (view !== undefined) {
      if (view.receipt.Action === undefined) continue; // a data receipt
      parts = { predecessorId: view.predecessor_id, receiverId: view.receiver_id, actions: view.receipt.Action.actions };
    } else if (id === firstReceipt) {
      // nearcore leaves a transaction's local receipt (signer = receiver) out of `receipts`: it is the transaction's actions.
      parts = { predecessorId: tx.signer_id, receiverId: tx.receiver_id, actions: tx.actions };
    }
    if (parts === undefined) continue;
    out.push({
      predecessorId: parts.predecessorId,
      receiverId: parts.receiverId,
      calls: parts.actions.flatMap((a) =>
        typeof a === "object" && a.FunctionCall !== undefined ? [{ methodName: a.FunctionCall.method_name, args: base64Decode(a.FunctionCall.args) }] : [],
      ),
      succeeded: !(typeof outcome.status === "object" && "Failure" in outcome.status),
      logs: outcome.logs,
    });
  }
  return out;
}

/** Maps `items` with at most `limit` calls in flight, keeping their order. */
async function limited<T, R>(limit: number, items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      const item = items[i];
      if (item !== undefined) out[i] = await map(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
