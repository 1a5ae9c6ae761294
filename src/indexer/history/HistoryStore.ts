/**
 * The transaction history index (FastNEAR's Transactions API) behind a small interface, so a
 * shared engine (PostgreSQL) can back it later, as IndexStore does for the REST /v1 rows.
 * Rows are named as FastNEAR's tables name their columns (explorer-api src/types.rs), so a
 * table-backed store maps them one to one. Writes come one block at a time (`apply`); a reader
 * sees the index as of one whole block. Backends: MemoryHistoryStore (`--ephemeral`) and
 * LmdbHistoryStore (the data dir); both pass test/indexer/history/historyStores.test.ts.
 */
import type { ExecutionOutcomeView, ExecutionOutcomeWithIdView, ReceiptView } from "../../chain/node.js";
import type { ExecutionMetadataView } from "../../chain/runtime/executionOutcome.js";
import type { SignedTransactionView } from "../../chain/transaction/index.js";
import type { Awaitable } from "../IndexStore.js";

/** One account's part in one transaction: the roles it played in any of its receipts. */
export interface AccountTxRow {
  readonly account_id: string;
  readonly transaction_hash: string;
  readonly tx_block_height: number;
  readonly tx_block_timestamp: string;
  readonly tx_index: number;
  readonly is_signer: boolean;
  readonly is_delegated_signer: boolean;
  readonly is_real_signer: boolean;
  readonly is_any_signer: boolean;
  readonly is_predecessor: boolean;
  readonly is_explicit_refund_to: boolean;
  readonly is_receiver: boolean;
  readonly is_real_receiver: boolean;
  readonly is_function_call: boolean;
  readonly is_action_arg: boolean;
  readonly is_event_log: boolean;
  readonly is_success: boolean;
}

/** The role flags of an account row, the filters `/v0/account` takes. */
export const ACCOUNT_ROLE_FLAGS = [
  "is_signer",
  "is_delegated_signer",
  "is_real_signer",
  "is_any_signer",
  "is_predecessor",
  "is_explicit_refund_to",
  "is_receiver",
  "is_real_receiver",
  "is_function_call",
  "is_action_arg",
  "is_event_log",
  "is_success",
] as const;
export type AccountRoleFlag = (typeof ACCOUNT_ROLE_FLAGS)[number];

/** A transaction as its block lists it. */
export interface BlockTxRow {
  readonly transaction_hash: string;
  readonly signer_id: string;
  readonly tx_block_height: number;
  readonly tx_index: number;
  readonly tx_block_hash: string;
  readonly tx_block_timestamp: string;
  readonly last_block_height: number;
  readonly is_completed: boolean;
  readonly shard_id: number;
  readonly receiver_id: string;
  readonly signer_public_key: string;
  readonly priority_fee: number;
  readonly nonce: number;
  readonly is_relayed: boolean;
  readonly real_signer_id: string;
  readonly real_receiver_id: string;
  readonly is_success: boolean;
  readonly gas_burnt: number;
  readonly tokens_burnt: string;
}

/** An executed receipt and the transaction it belongs to. */
export interface ReceiptRow {
  readonly receipt_id: string;
  readonly block_height: number;
  readonly block_timestamp: string;
  readonly receipt_index: number;
  readonly appear_block_height: number;
  readonly appear_receipt_index: number;
  readonly transaction_hash: string;
  readonly tx_block_height: number;
  readonly tx_block_timestamp: string;
  readonly tx_index: number;
  readonly predecessor_id: string;
  readonly receiver_id: string;
  readonly receipt_type: "Action" | "Data";
  readonly priority: number;
  readonly shard_id: number;
  readonly is_success: boolean;
}

export interface BlockRow {
  readonly block_height: number;
  readonly prev_block_height: number | null;
  readonly block_hash: string;
  readonly prev_block_hash: string;
  readonly block_timestamp: string;
  readonly epoch_id: string;
  readonly next_epoch_id: string;
  readonly chunks_included: number;
  readonly author_id: string;
  readonly protocol_version: number;
  readonly gas_price: string;
  readonly block_ordinal: number | null;
  readonly total_supply: string;
  readonly num_transactions: number;
  readonly num_receipts: number;
  readonly gas_burnt: string;
  readonly tokens_burnt: string;
}

/**
 * An outcome as FastNEAR's indexer keeps it (`ImprovedExecutionOutcome`): where it executed and
 * its index there (tx_index or receipt_index), without the proof and the gas profile.
 */
export interface HistoryOutcome {
  readonly block_hash: string;
  /** Unix ns as a JSON number (a u64 in FastNEAR's JSON: inexact above 2^53, as `header.timestamp`). */
  readonly block_timestamp: number;
  readonly block_height: number;
  readonly index: number;
  readonly id: string;
  readonly outcome: Omit<ExecutionOutcomeView, "metadata"> & { readonly metadata: WithoutGasProfile<ExecutionMetadataView> };
}

/** Execution metadata with its gas profile left out (FastNEAR's indexer sets it to None), version by version. */
type WithoutGasProfile<M> = M extends unknown ? Omit<M, "gas_profile"> & { readonly gas_profile: null } : never;

/** A receipt as FastNEAR's indexer keeps it (`ImprovedReceiptView`): where it appeared, then the ReceiptView's fields. */
export interface HistoryReceipt extends ReceiptView {
  readonly block_height: number;
  readonly block_hash: string;
  /** Unix ns as a JSON number, as HistoryOutcome's. */
  readonly block_timestamp: number;
  readonly receipt_index: number;
}

/** Everything a transaction did so far (`/v0/transactions`): FastNEAR's "raw transaction data" (its indexer's TransactionView). */
export interface TransactionDetails {
  readonly transaction: SignedTransactionView;
  readonly execution_outcome: HistoryOutcome;
  readonly receipts: readonly { readonly receipt: HistoryReceipt; readonly execution_outcome: HistoryOutcome }[];
  readonly data_receipts: readonly HistoryReceipt[];
}

/** The block, its hash and timestamp (Unix ns, decimal), of a history outcome or receipt. */
export interface HistoryPlace {
  readonly height: number;
  readonly hash: string;
  readonly timestamp: string;
}

/** An outcome (as `tx` shows it) as FastNEAR's indexer keeps it, at `index` of `place`. */
export function historyOutcome(view: ExecutionOutcomeWithIdView, place: HistoryPlace, index: number): HistoryOutcome {
  const { metadata } = view.outcome;
  return {
    block_hash: view.block_hash,
    block_timestamp: Number(place.timestamp),
    block_height: place.height,
    index,
    id: view.id,
    outcome: { ...view.outcome, metadata: { ...metadata, gas_profile: null } },
  };
}

/** A receipt as FastNEAR's indexer keeps it, appeared at `index` of `place`; its own fields after the place's, in FastNEAR's order. */
export function historyReceipt(receipt: ReceiptView, place: HistoryPlace, index: number): HistoryReceipt {
  return { block_height: place.height, block_hash: place.hash, block_timestamp: Number(place.timestamp), receipt_index: index, ...receipt };
}

/** A transaction's whole record: its block row, its details and one row per account involved. */
export interface TransactionRecord {
  readonly row: BlockTxRow;
  readonly details: TransactionDetails;
  /** By account id. */
  readonly accounts: readonly AccountTxRow[];
  /** While incomplete, its receipts that appeared in a chunk and have not executed yet (kept so that a restart knows where they appeared). */
  readonly inFlight?: InFlightReceipts;
}

/** Receipts of a transaction that appeared and wait: action receipts to execute, data receipts for an action receipt to take. */
export interface InFlightReceipts {
  readonly receipts: readonly HistoryReceipt[];
  readonly dataReceipts: readonly HistoryReceipt[];
}

/** One transfer as one account saw it (FastNEAR's transfers-api row; see transfersOf). */
export interface TransferRow {
  readonly block_height: string;
  readonly block_timestamp: string;
  readonly transaction_id: string | null;
  readonly receipt_id: string;
  readonly action_index: number | null;
  readonly log_index: number | null;
  readonly transfer_index: number;
  readonly signer_id: string;
  readonly predecessor_id: string;
  readonly receipt_account_id: string;
  readonly account_id: string;
  readonly other_account_id: string | null;
  readonly asset_id: string;
  readonly asset_type: "Near" | "Ft";
  /** Negative when the account sent. */
  readonly amount: string;
  readonly method_name: string | null;
  readonly transfer_type: "NativeTransfer" | "AttachedDeposit" | "FtTransfer";
  readonly human_amount: number | null;
  readonly usd_amount: null;
  readonly start_of_block_balance: null;
  readonly end_of_block_balance: null;
}

/** A position in an account's transfers: (block_timestamp in ns, transfer_index). */
export interface TransferPosition {
  readonly timestamp: bigint;
  readonly index: number;
}

export interface TransfersQuery {
  readonly accountId: string;
  /** Block timestamps in ns: from inclusive, to exclusive. */
  readonly fromTimestamp?: bigint;
  readonly toTimestamp?: bigint;
  /** Rows strictly after this position in the query's order. */
  readonly after?: TransferPosition;
  readonly desc: boolean;
  readonly limit: number;
  readonly direction?: "sender" | "receiver";
  readonly assetId?: string;
  /** Smallest absolute amount. */
  readonly minAmount?: bigint;
  /** Leave out rows whose other side is `system`. */
  readonly ignoreSystem?: boolean;
}

/** A test of a transfer row against a query's filters (direction, asset, amount, system). */
export function transferFilter(query: TransfersQuery): (row: TransferRow) => boolean {
  return (row) => {
    const negative = row.amount.startsWith("-");
    if (query.direction === "sender" && !negative) return false;
    if (query.direction === "receiver" && negative) return false;
    if (query.assetId !== undefined && row.asset_id !== query.assetId) return false;
    if (query.ignoreSystem === true && row.other_account_id === "system") return false;
    if (query.minAmount !== undefined && BigInt(negative ? row.amount.slice(1) : row.amount) < query.minAmount) return false;
    return true;
  };
}

/** Orders transfer positions ascending. */
export function compareTransfers(a: TransferPosition, b: TransferPosition): number {
  return a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.index - b.index;
}

/** Everything one block changes in the history index. */
export interface HistoryBlockUpdate {
  readonly block: BlockRow;
  /** Transactions the block included or advanced (a receipt of theirs executed): their whole new record. */
  readonly transactions: readonly TransactionRecord[];
  /** The receipts the block executed, in `receipt_index` order. */
  readonly receipts: readonly ReceiptRow[];
  /** The transfers the block's receipts made, one row per account (none when absent). */
  readonly transfers?: readonly TransferRow[];
}

/** A position in an account's history: (tx_block_height, tx_index). */
export interface TxPosition {
  readonly height: number;
  readonly index: number;
}

export interface AccountTxsQuery {
  readonly accountId: string;
  /** Flags a row must have (true) or lack (false); absent flags do not filter. */
  readonly flags: Partial<Record<AccountRoleFlag, boolean>>;
  /** Inclusive height bounds. */
  readonly fromHeight?: number;
  readonly toHeight?: number;
  /** Rows strictly after this position in the query's order. */
  readonly after?: TxPosition;
  readonly desc: boolean;
  readonly limit: number;
  /** Also count every row matching the flags and height bounds (the first page's `txs_count`). */
  readonly count: boolean;
}

export interface HistoryReader {
  /** Last applied block (null before genesis is indexed). */
  status(): Awaitable<{ readonly height: number | null }>;
  /** Known transactions among `hashes`, in the order asked. */
  transactions(hashes: readonly string[]): Awaitable<readonly TransactionRecord[]>;
  accountTxs(query: AccountTxsQuery): Awaitable<{ readonly rows: readonly AccountTxRow[]; readonly count?: number }>;
  /** A block by height or base58 hash, with its transaction and receipt rows. */
  block(id: number | string): Awaitable<{ readonly row: BlockRow; readonly txs: readonly BlockTxRow[]; readonly receipts: readonly ReceiptRow[] } | undefined>;
  /** Block rows within inclusive bounds, newest first when `desc`. */
  blocks(query: { readonly fromHeight?: number; readonly toHeight?: number; readonly desc: boolean; readonly limit: number }): Awaitable<readonly BlockRow[]>;
  /** One page of an account's transfers, ordered by (block_timestamp, transfer_index). */
  accountTransfers(query: TransfersQuery): Awaitable<readonly TransferRow[]>;
  /** A receipt row and its transaction's record. */
  receipt(receiptId: string): Awaitable<{ readonly row: ReceiptRow; readonly transaction: TransactionRecord | undefined } | undefined>;
}

/** The write side, used by the history indexer alone. */
export interface HistoryStore extends HistoryReader {
  readonly height: number | null;
  /** Applies one block atomically, with the new height; blocks come in height order. */
  apply(update: HistoryBlockUpdate): Awaitable<void>;
  /**
   * Applies blocks in height order (the indexer's batch of one event-loop turn), as `apply` of
   * each would; a store may write them in one go (a transaction several of them advance once).
   */
  applyBlocks(updates: readonly HistoryBlockUpdate[]): Awaitable<void>;
  /** Transactions with receipts still to execute, as last applied (the indexer resumes them after a restart or a rewind). */
  incompleteTransactions(): Awaitable<readonly TransactionRecord[]>;
  /**
   * Forgets the blocks above `height` (a revert, or a chain the index ran ahead of), atomically.
   * A kept transaction's record is the one of its last block, so a transaction with receipts
   * above `height` is dropped whole, and with it every block from the one that included it:
   * the index may go back further than `height` (see rewindHeight). Returns the height kept
   * (null: nothing, not even genesis); the indexer then applies the blocks after it again.
   */
  rewind(height: number): Awaitable<number | null>;
  /** Releases what the store holds open (a data dir's environment). */
  close(): Awaitable<void>;
}

/**
 * The height a rewind to `height` keeps: walking down from the indexed height, every receipt of
 * a dropped block belongs to a transaction whose block must go too, so the kept height drops to
 * below that block's. `receiptTxHeights(h)` gives the tx_block_height of each receipt row of block h.
 */
export function rewindHeight(indexed: number, height: number, receiptTxHeights: (height: number) => Iterable<number>): number {
  let keep = Math.min(height, indexed);
  for (let h = indexed; h > keep; h--) {
    for (const txHeight of receiptTxHeights(h)) keep = Math.min(keep, txHeight - 1);
  }
  return keep;
}

/** The hashes of the transactions a block included (its own height), in tx_index order. */
export function includedHashes(update: HistoryBlockUpdate): string[] {
  const height = update.block.block_height;
  return update.transactions
    .filter((record) => record.row.tx_block_height === height)
    .sort((a, b) => a.row.tx_index - b.row.tx_index)
    .map((record) => record.row.transaction_hash);
}

/** A test of an account row against a query's flags (every given flag equal). */
export function flagFilter(flags: AccountTxsQuery["flags"]): (row: AccountTxRow) => boolean {
  const wanted = Object.entries(flags) as [AccountRoleFlag, boolean][];
  return (row) => wanted.every(([flag, value]) => row[flag] === value);
}

/** Throws unless `height` is after the indexed one (blocks come in height order). */
export function checkNextHeight(indexed: number | null, height: number): void {
  if (indexed !== null && height <= indexed) throw new Error(`block ${height} is not after the indexed block ${indexed}`);
}
