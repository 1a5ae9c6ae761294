import { RpcResponseError } from "@shardkit/client/jsonrpc";
import { base64Decode } from "../../chain/primitives/base64.js";
import { ftBalanceFromOutcome } from "../FtBalanceReader.js";
import type { AccountStateRow, FtBalance, IndexBlockUpdate, KeyPermission } from "../IndexStore.js";
import { tokenActivity, type ExecutedReceipt } from "../tokenActivity.js";
import type { UpstreamCall } from "./UpstreamRpc.js";

/**
 * Transactions whose receipts may still execute in later blocks: tx hash → signer. The
 * follower commits it with each block so that a new leader resumes with it.
 */
export type OpenTransactions = ReadonlyMap<string, string>;

// The parts of nearcore's RPC views the follower reads.
interface BlockView {
  header: { height: number; hash: string; timestamp_nanosec: string };
  chunks: { chunk_hash: string; height_included: number; shard_id: number }[];
}
type ActionView = string | Record<string, unknown>;
interface ChunkView {
  transactions: { hash: string; signer_id: string }[];
}
interface OutcomeWithId {
  id: string;
  block_hash: string;
  outcome: { logs: string[]; receipt_ids: string[]; status: Record<string, unknown> | string };
}
interface TxStatusView {
  final_execution_status: string;
  transaction?: { signer_id: string; receiver_id: string; actions: ActionView[] };
  transaction_outcome?: OutcomeWithId;
  receipts_outcome?: OutcomeWithId[];
  receipts?: { receipt_id: string; predecessor_id: string; receiver_id: string; receipt: Record<string, unknown> }[];
}
interface ChangeView {
  type: string;
  change: { account_id: string; amount?: string; locked?: string; storage_usage?: number; public_key?: string; access_key?: { permission: unknown } };
}

/** Where the follower is: the last block's hash/height lookups it may need for later blocks. */
export interface RpcChainView {
  readonly call: UpstreamCall;
  /** Heights of blocks by hash (the follower fills it as it goes; misses are looked up). */
  readonly heights: Map<string, number>;
  /** Concurrent calls at most per step (tx statuses, balance reads). */
  readonly concurrency: number;
}

/** The block's update, the open transactions after it and its hash. */
export interface RpcBlockResult {
  readonly update: IndexBlockUpdate;
  readonly open: Map<string, string>;
  readonly hash: string;
  /** What the upstream answered, for the history index (historyInputFromRpc). */
  readonly answers: RpcBlockAnswers;
}

/** The upstream's answers a block step read: the block, its new chunks' transactions (in chunk order) and the open transactions' statuses. */
export interface RpcBlockAnswers {
  readonly block: unknown;
  readonly chunks: readonly { readonly shardId: number; readonly transactions: readonly { readonly hash: string }[] }[];
  /** By transaction hash: nearcore's EXPERIMENTAL_tx_status answer. */
  readonly statuses: ReadonlyMap<string, unknown>;
}

/** nearcore's answer for a height that has no block (no producer made one). */
const isUnknownBlock = (error: unknown) => error instanceof RpcResponseError && error.causeName === "UNKNOWN_BLOCK";

/**
 * Builds the IndexBlockUpdate of block `height` from the upstream's RPC, as BlockIndexer derives
 * it from a block commit: account states and access keys from the state changes the block made
 * (`EXPERIMENTAL_changes_in_block`, then `EXPERIMENTAL_changes` for the touched accounts), token
 * activity from the receipts executed in the block (found through the execution trees of the
 * transactions still open, `EXPERIMENTAL_tx_status`), FT balances read at the block
 * (`query` `call_function` `ft_balance_of`). Undefined for a height without a block.
 */
export async function blockUpdateFromRpc(
  chain: RpcChainView,
  height: number,
  openBefore: OpenTransactions,
  genesis: boolean,
): Promise<RpcBlockResult | undefined> {
  let block: BlockView;
  try {
    block = (await chain.call("block", { block_id: height })) as BlockView;
  } catch (error) {
    if (isUnknownBlock(error)) return undefined;
    throw error;
  }
  const hash = block.header.hash;
  chain.heights.set(hash, height);

  const open = new Map(openBefore);
  const newChunks = block.chunks.filter((c) => c.height_included === height);
  const chunks = await limited(chain.concurrency, newChunks, (c) => chain.call("chunk", { chunk_id: c.chunk_hash }) as Promise<ChunkView>);
  for (const chunk of chunks) for (const tx of chunk.transactions) open.set(tx.hash, tx.signer_id);

  const ft = new Map<string, { accountId: string; contractId: string }>();
  const nft = new Map<string, { accountId: string; contractId: string }>();
  const pools = new Map<string, { accountId: string; poolId: string }>();
  const statuses = await limited(chain.concurrency, [...open], async ([txHash, signerId]) => ({
    txHash,
    status: (await chain.call("EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: signerId, wait_until: "INCLUDED_FINAL" })) as TxStatusView,
  }));
  for (const { txHash, status } of statuses) {
    for (const receipt of executedInBlock(status, hash)) {
      const activity = tokenActivity(receipt);
      for (const row of activity.ft) ft.set(`${row.contractId} ${row.accountId}`, row);
      for (const row of activity.nft) nft.set(`${row.contractId} ${row.accountId}`, row);
      for (const row of activity.pools) pools.set(`${row.poolId} ${row.accountId}`, row);
    }
    if (await finishedBy(chain, status, height)) open.delete(txHash);
  }

  const { accountStates, accessKeys } = await stateUpdates(chain, height);
  const balances = genesis
    ? []
    : await limited(chain.concurrency, [...ft.values()], async (row) => ({ ...row, balance: await readFtBalance(chain, height, row.contractId, row.accountId) }));
  return {
    hash,
    open,
    answers: {
      block,
      chunks: chunks.map((chunk, i) => ({ shardId: newChunks[i]!.shard_id, transactions: chunk.transactions })),
      statuses: new Map(statuses.map(({ txHash, status }) => [txHash, status])),
    },
    update: {
      height,
      timestampNs: BigInt(block.header.timestamp_nanosec),
      accountStates,
      accessKeys,
      ft: balances,
      nft: [...nft.values()],
      pools: [...pools.values()],
      balancesRead: !genesis,
    },
  };
}

/** The receipts of one transaction's tree whose outcome is in block `blockHash`. */
function executedInBlock(status: TxStatusView, blockHash: string): ExecutedReceipt[] {
  const views = new Map((status.receipts ?? []).map((r) => [r.receipt_id, r]));
  const tx = status.transaction;
  const firstReceipt = status.transaction_outcome?.outcome.receipt_ids[0];
  const out: ExecutedReceipt[] = [];
  for (const { id, block_hash, outcome } of status.receipts_outcome ?? []) {
    if (block_hash !== blockHash) continue;
    const view = views.get(id);
    let parts: { predecessorId: string; receiverId: string; actions: ActionView[] } | undefined;
    if (view !== undefined) {
      const action = view.receipt.Action as { actions?: ActionView[] } | undefined;
      if (action?.actions === undefined) continue; // a data receipt
      parts = { predecessorId: view.predecessor_id, receiverId: view.receiver_id, actions: action.actions };
    } else if (id === firstReceipt && tx !== undefined) {
      // nearcore leaves a transaction's local receipt (signer = receiver) out of `receipts`: it is the transaction's actions.
      parts = { predecessorId: tx.signer_id, receiverId: tx.receiver_id, actions: tx.actions };
    }
    if (parts === undefined) continue;
    out.push({
      predecessorId: parts.predecessorId,
      receiverId: parts.receiverId,
      calls: parts.actions.flatMap((a) => {
        const call = typeof a === "object" ? (a.FunctionCall as { method_name: string; args: string } | undefined) : undefined;
        return call === undefined ? [] : [{ methodName: call.method_name, args: base64Decode(call.args) }];
      }),
      succeeded: !(typeof outcome.status === "object" && "Failure" in outcome.status),
      logs: outcome.logs,
    });
  }
  return out;
}

/** True when every receipt of the tree has executed, in blocks at or below `height`. */
async function finishedBy(chain: RpcChainView, status: TxStatusView, height: number): Promise<boolean> {
  if (status.transaction_outcome === undefined) return false;
  const outcomes = [status.transaction_outcome, ...(status.receipts_outcome ?? [])];
  const executed = new Set(outcomes.map((o) => o.id));
  for (const o of outcomes) {
    if (o.outcome.receipt_ids.some((id) => !executed.has(id))) return false;
    if ((await blockHeight(chain, o.block_hash)) > height) return false;
  }
  return true;
}

async function blockHeight(chain: RpcChainView, hash: string): Promise<number> {
  const known = chain.heights.get(hash);
  if (known !== undefined) return known;
  const block = (await chain.call("block", { block_id: hash })) as BlockView;
  chain.heights.set(hash, block.header.height);
  return block.header.height;
}

/** Account states and access keys after the block, for every account or key it wrote. */
async function stateUpdates(chain: RpcChainView, height: number): Promise<Pick<IndexBlockUpdate, "accountStates" | "accessKeys">> {
  const kinds = (await chain.call("EXPERIMENTAL_changes_in_block", { block_id: height })) as { changes: { type: string; account_id: string }[] };
  const touched = (type: string) => [...new Set(kinds.changes.filter((c) => c.type === type).map((c) => c.account_id))];
  const accountIds = touched("account_touched");
  const keyOwners = touched("access_key_touched");
  const [accountChanges, keyChanges] = await Promise.all([
    accountIds.length === 0
      ? { changes: [] }
      : (chain.call("EXPERIMENTAL_changes", { changes_type: "account_changes", account_ids: accountIds, block_id: height }) as Promise<{ changes: ChangeView[] }>),
    keyOwners.length === 0
      ? { changes: [] }
      : (chain.call("EXPERIMENTAL_changes", { changes_type: "all_access_key_changes", account_ids: keyOwners, block_id: height }) as Promise<{
          changes: ChangeView[];
        }>),
  ]);
  // Each key's changes come in order: the last one is its value after the block.
  const accountStates = new Map<string, AccountStateRow | null>();
  for (const { type, change } of accountChanges.changes) {
    accountStates.set(
      change.account_id,
      type === "account_deletion"
        ? null
        : { balance: change.amount ?? "0", locked: change.locked ?? "0", storageBytes: change.storage_usage ?? 0 },
    );
  }
  const keys = new Map<string, { publicKey: string; accountId: string; permission: KeyPermission | null }>();
  for (const { type, change } of keyChanges.changes) {
    const publicKey = change.public_key ?? "";
    keys.set(`${change.account_id} ${publicKey}`, {
      publicKey,
      accountId: change.account_id,
      permission: type === "access_key_deletion" ? null : change.access_key?.permission === "FullAccess" ? "full" : "limited",
    });
  }
  return { accountStates, accessKeys: [...keys.values()] };
}

/** Causes meaning the token cannot answer at this block: recorded as `""`, as the in-process reader does. */
const NOT_A_BALANCE = new Set(["UNKNOWN_ACCOUNT", "NO_CONTRACT_CODE", "CONTRACT_EXECUTION_ERROR", "INVALID_ACCOUNT"]);

/** The token's `ft_balance_of` at the block; a failed call or a non-balance answer is `""`. */
export async function readFtBalance(chain: RpcChainView, height: number, contractId: string, accountId: string): Promise<FtBalance> {
  let answer: { result?: number[]; error?: string };
  try {
    answer = (await chain.call("query", {
      request_type: "call_function",
      account_id: contractId,
      method_name: "ft_balance_of",
      args_base64: Buffer.from(JSON.stringify({ account_id: accountId })).toString("base64"),
      block_id: height,
    })) as typeof answer;
  } catch (error) {
    if (error instanceof RpcResponseError && NOT_A_BALANCE.has(error.causeName)) return "";
    throw error;
  }
  if (!Array.isArray(answer.result)) return "";
  return ftBalanceFromOutcome({ ok: true, result: Uint8Array.from(answer.result), logs: [] });
}

/** Maps `items` with at most `limit` calls in flight, keeping their order. */
async function limited<T, R>(limit: number, items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await map(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
