import type { Block, BlockCommit, Chain, ExecutionOutcomeWithIdView, ReceiptView } from "../../chain/node.js";
import { base58Encode } from "@shardkit/primitives/base58";
import type { SignedTransactionView } from "../../chain/transaction/index.js";
import type { Awaitable } from "../IndexStore.js";
import { parseNep297Log } from "../nep297.js";
import { accountsNamedIn, jsonArguments } from "./accountsNamedIn.js";
import { historyBlockRow } from "./historyBlockRow.js";
import type { AccountRoleFlag, AccountTxRow, BlockRow, HistoryBlockUpdate, HistoryStore, ReceiptRow, TransactionRecord } from "./HistoryStore.js";

/** Blocks indexed per event-loop turn, so requests are answered between turns while catching up. */
const BATCH = 64;
/** Commits queued at most while the index is behind; beyond it they are read back from the chain (as BlockIndexer does). */
const MAX_QUEUED_COMMITS = 256;
/** A catch-up is reported when it starts, every this many blocks, and when done. */
const REPORT_EVERY = 1000;

export interface HistoryIndexerOptions {
  /**
   * A backlog of more than one turn's blocks (a data dir without its index, or behind it):
   * called when the catch-up starts, every 1,000 blocks, and with `indexed === target` when done.
   */
  readonly onCatchUp?: (indexed: number, target: number) => void;
}

type Flags = Record<Exclude<AccountRoleFlag, "is_success">, boolean>;
type ActionView = SignedTransactionView["actions"][number];

const NO_FLAGS: Flags = {
  is_signer: false,
  is_delegated_signer: false,
  is_real_signer: false,
  is_any_signer: false,
  is_predecessor: false,
  is_explicit_refund_to: false,
  is_receiver: false,
  is_real_receiver: false,
  is_function_call: false,
  is_action_arg: false,
  is_event_log: false,
};

/** A transaction while receipts of it are still to execute. */
interface TxDraft {
  readonly hash: string;
  readonly transaction: SignedTransactionView;
  readonly outcome: ExecutionOutcomeWithIdView;
  readonly blockHeight: number;
  readonly blockHash: string;
  readonly timestamp: string;
  readonly index: number;
  readonly shardId: number;
  readonly delegate: { readonly senderId: string; readonly receiverId: string } | undefined;
  lastBlockHeight: number;
  gasBurnt: bigint;
  tokensBurnt: bigint;
  /** Receipt ids announced by an outcome and not executed yet. */
  readonly pending: Set<string>;
  /** Receipt id → how it ended (for the SuccessReceiptId chain that decides success). */
  readonly statuses: Map<string, ExecutionOutcomeWithIdView["outcome"]["status"]>;
  /** Executed receipts in execution order (their outcome views are read from the chain per record). */
  readonly receipts: ReceiptView[];
  readonly accounts: Map<string, Flags>;
}

/**
 * Follows the chain's block commits into a HistoryStore: a block row per block, and per
 * transaction its block row, its receipts with outcomes and one row per account involved,
 * rewritten each time a block executes one of its receipts, until none is pending. Like
 * BlockIndexer, the commit listener only queues: indexing never delays block production.
 */
export class HistoryIndexer {
  private readonly queue: BlockCommit[] = [];
  private scheduled = false;
  private unsubscribe: (() => void) | undefined;
  private readonly waiters: { height: number; resolve: () => void }[] = [];
  private readonly drafts = new Map<string, TxDraft>();
  /** Pending receipt id → its transaction's hash. */
  private readonly receiptTx = new Map<string, string>();

  /** Until the first drain after start: a backlog found then is a catch-up to report. */
  private starting = true;
  /** A catch-up being reported: the height last reported. */
  private catchingUp: { reportedAt: number } | undefined;

  /**
   * Takes over `store` as it is (a data dir's index, or one rewound after a revert): rewinds
   * it to the last block it shares with the chain, and resumes its incomplete transactions.
   */
  constructor(
    private readonly chain: Chain,
    readonly store: HistoryStore,
    private readonly options: HistoryIndexerOptions = {},
  ) {
    this.rewindToChain();
    for (const record of settled(store.incompleteTransactions())) this.resume(record);
  }

  /** Indexes what the store lacks up to the head (in batches), then follows new blocks. */
  start(): void {
    if (this.unsubscribe !== undefined) return;
    this.unsubscribe = this.chain.onBlockCommit((commit) => {
      this.queue.push(commit);
      if (this.queue.length > MAX_QUEUED_COMMITS) this.queue.splice(0, this.queue.length - 1);
      this.schedule();
    }, "history-indexer");
    this.schedule();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.queue.length = 0;
  }

  /** Resolves once the index has applied `height`. */
  whenIndexed(height: number): Promise<void> {
    if ((this.store.height ?? -1) >= height) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ height, resolve }));
  }

  private schedule(): void {
    if (this.scheduled || this.unsubscribe === undefined) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      try {
        this.drain();
      } catch (error) {
        process.emitWarning(`history indexer failed: ${String(error)}`);
      }
    });
  }

  /** Indexes up to BATCH blocks: kept commits the store lacks first, then queued ones. */
  private drain(): void {
    if (this.unsubscribe === undefined) return;
    let done = 0;
    const target = this.chain.head().height;
    this.reportCatchUp(target);
    if (this.store.height === null) {
      settled(this.store.apply(this.genesisUpdate()));
      done++;
    }
    while (done < BATCH && (this.store.height ?? -1) < target) {
      const height = this.store.height! + 1;
      const queued = this.queue[0]?.block.height === height ? this.queue.shift() : undefined;
      const commit = queued ?? this.chain.blockCommit(height);
      if (commit === undefined) throw new Error(`the chain kept no commit for block ${height}`);
      settled(this.store.apply(this.update(commit)));
      done++;
    }
    while (this.queue.length > 0 && this.queue[0]!.block.height <= (this.store.height ?? -1)) this.queue.shift();
    this.reportCatchUp(target);
    this.notify();
    if ((this.store.height ?? -1) < this.chain.head().height || this.queue.length > 0) this.schedule();
  }

  /**
   * Reports a backlog found at start of more than one turn (a data dir without its index, or
   * behind it): its start, every REPORT_EVERY blocks, its end. A backlog that builds up later
   * (a fast-forward makes 64 blocks a turn) is routine, not reported.
   */
  private reportCatchUp(target: number): void {
    const report = this.options.onCatchUp;
    if (report === undefined) return;
    const indexed = this.store.height ?? this.chain.genesisBlock.height - 1;
    if (this.catchingUp === undefined) {
      if (!this.starting) return;
      this.starting = false;
      if (target - indexed <= BATCH) return;
      this.catchingUp = { reportedAt: indexed };
      report(indexed, target);
    } else if (indexed >= target) {
      this.catchingUp = undefined;
      report(indexed, indexed);
    } else if (indexed - this.catchingUp.reportedAt >= REPORT_EVERY) {
      this.catchingUp.reportedAt = indexed;
      report(indexed, target);
    }
  }

  /**
   * A store ahead of the chain, or on another branch (a data dir whose chain was reverted or
   * replaced while the index was not open): rewound to the last block both have.
   */
  private rewindToChain(): void {
    const indexed = this.store.height;
    if (indexed === null) return;
    const genesis = this.chain.genesisBlock;
    const sameBlock = (h: number) => {
      const kept = this.chain.blockByHeight(h);
      return kept !== undefined && settled(this.store.block(h))?.row.block_hash === kept.hash;
    };
    if (!sameBlock(genesis.height)) {
      settled(this.store.rewind(genesis.height - 1));
      return;
    }
    let h = Math.min(indexed, this.chain.head().height);
    while (h > genesis.height && !sameBlock(h)) h--;
    if (h < indexed) settled(this.store.rewind(h));
  }

  /** A transaction the store holds as incomplete, back as a draft (its receipts still to come). */
  private resume(record: TransactionRecord): void {
    const { row, details } = record;
    const executed = new Set(details.receipts.map((r) => r.receipt.receipt_id));
    const announced = [...details.execution_outcome.outcome.receipt_ids, ...details.receipts.flatMap((r) => r.execution_outcome.outcome.receipt_ids)];
    const pending = new Set(announced.filter((id) => !executed.has(id)));
    const draft: TxDraft = {
      hash: row.transaction_hash,
      transaction: details.transaction,
      outcome: details.execution_outcome,
      blockHeight: row.tx_block_height,
      blockHash: row.tx_block_hash,
      timestamp: row.tx_block_timestamp,
      index: row.tx_index,
      shardId: row.shard_id,
      delegate: delegateOf(details.transaction.actions),
      lastBlockHeight: row.last_block_height,
      gasBurnt: BigInt(row.gas_burnt),
      tokensBurnt: BigInt(row.tokens_burnt),
      pending,
      statuses: new Map(details.receipts.map((r) => [r.receipt.receipt_id, r.execution_outcome.outcome.status])),
      receipts: details.receipts.map((r) => r.receipt),
      accounts: new Map(record.accounts.map((a) => [a.account_id, flagsOf(a)])),
    };
    this.drafts.set(draft.hash, draft);
    for (const id of pending) this.receiptTx.set(id, draft.hash);
  }

  private notify(): void {
    const height = this.store.height ?? -1;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i]!.height <= height) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }

  private genesisUpdate(): HistoryBlockUpdate {
    return { block: historyBlockRow(this.chain, this.chain.genesisBlock), transactions: [], receipts: [] };
  }

  private update(commit: BlockCommit): HistoryBlockUpdate {
    const { block } = commit;
    const touched = new Set<string>();
    let gasBurnt = 0n;
    let tokensBurnt = 0n;
    let txIndex = 0;
    for (const chunk of block.view.chunks) {
      if (chunk.height_included !== block.height) continue;
      for (const stx of this.chain.chunkBodies.get(chunk.chunk_hash)?.transactions ?? []) {
        const draft = this.startTransaction(base58Encode(stx.hash), block, txIndex++, chunk.shard_id);
        if (draft === undefined) continue;
        gasBurnt += draft.gasBurnt;
        tokensBurnt += draft.tokensBurnt;
        touched.add(draft.hash);
      }
    }
    const receipts: ReceiptRow[] = [];
    commit.receiptOutcomes.forEach((outcome, receiptIndex) => {
      gasBurnt += outcome.gasBurnt;
      tokensBurnt += outcome.tokensBurnt;
      const receiptId = base58Encode(outcome.id);
      const hash = this.receiptTx.get(receiptId);
      const draft = hash === undefined ? undefined : this.drafts.get(hash);
      if (draft === undefined) return;
      this.receiptTx.delete(receiptId);
      draft.pending.delete(receiptId);
      for (const id of outcome.receiptIds) {
        const child = base58Encode(id);
        draft.pending.add(child);
        this.receiptTx.set(child, draft.hash);
      }
      draft.lastBlockHeight = block.height;
      draft.gasBurnt += outcome.gasBurnt;
      draft.tokensBurnt += outcome.tokensBurnt;
      const receipt = this.chain.receipt(receiptId) ?? this.firstReceipt(draft, receiptId);
      this.addReceiptRoles(draft, receipt, outcome.logs);
      const succeeded = outcome.status.kind !== "Failure";
      draft.statuses.set(receiptId, succeeded ? (outcome.status.kind === "SuccessReceiptId" ? { SuccessReceiptId: base58Encode(outcome.status.receiptId) } : { SuccessValue: "" }) : { Failure: outcome.status.error });
      draft.receipts.push(receipt);
      touched.add(draft.hash);
      receipts.push({
        receipt_id: receiptId,
        block_height: block.height,
        block_timestamp: block.timestampNs.toString(),
        receipt_index: receiptIndex,
        appear_block_height: block.height,
        appear_receipt_index: receiptIndex,
        transaction_hash: draft.hash,
        tx_block_height: draft.blockHeight,
        tx_block_timestamp: draft.timestamp,
        tx_index: draft.index,
        predecessor_id: receipt.predecessor_id,
        receiver_id: receipt.receiver_id,
        receipt_type: "Action",
        priority: receipt.priority,
        shard_id: this.chain.shardLayout.shardIdOf(receipt.receiver_id),
        is_success: succeeded,
      });
    });
    const transactions = [...touched].map((hash) => this.record(this.drafts.get(hash)!));
    return { block: historyBlockRow(this.chain, block, { transactions: txIndex, receipts: commit.receiptOutcomes.length, gasBurnt, tokensBurnt }), transactions, receipts };
  }

  /** A transaction the block included: its conversion outcome and its signers' rows. */
  private startTransaction(hash: string, block: Block, index: number, shardId: number): TxDraft | undefined {
    const outcome = this.chain.transactionStatus(hash)?.outcome;
    if (outcome === undefined) return undefined;
    const transaction = outcome.transaction;
    const delegate = delegateOf(transaction.actions);
    const txOutcome = outcome.transaction_outcome;
    const draft: TxDraft = {
      hash,
      transaction,
      outcome: txOutcome,
      blockHeight: block.height,
      blockHash: block.hash,
      timestamp: block.timestampNs.toString(),
      index,
      shardId,
      delegate,
      lastBlockHeight: block.height,
      gasBurnt: BigInt(txOutcome.outcome.gas_burnt),
      tokensBurnt: BigInt(txOutcome.outcome.tokens_burnt),
      pending: new Set(txOutcome.outcome.receipt_ids),
      statuses: new Map(),
      receipts: [],
      accounts: new Map(),
    };
    this.drafts.set(hash, draft);
    for (const id of txOutcome.outcome.receipt_ids) this.receiptTx.set(id, hash);
    mark(draft, transaction.signer_id, "is_signer", "is_any_signer");
    if (delegate === undefined) mark(draft, transaction.signer_id, "is_real_signer");
    else mark(draft, delegate.senderId, "is_delegated_signer", "is_real_signer", "is_any_signer");
    return draft;
  }

  /** The roles a receipt gives: predecessor, receiver, function-call target, accounts named in its arguments and events. */
  private addReceiptRoles(draft: TxDraft, receipt: ReceiptView, logs: readonly string[]): void {
    const refund = receipt.predecessor_id === "system";
    const actions = "Action" in receipt.receipt ? receipt.receipt.Action.actions : [];
    if (!refund) mark(draft, receipt.predecessor_id, "is_predecessor");
    mark(draft, receipt.receiver_id, "is_receiver");
    const relayerHop = actions.length > 0 && actions.every((a) => typeof a === "object" && ("Delegate" in a || "DelegateV2" in a));
    if (!refund && !relayerHop) mark(draft, receipt.receiver_id, "is_real_receiver");
    const named = new Set<string>();
    for (const action of actions) {
      if (typeof action !== "object" || !("FunctionCall" in action)) continue;
      mark(draft, receipt.receiver_id, "is_function_call");
      accountsNamedIn(jsonArguments(action.FunctionCall.args), named);
    }
    for (const account of named) mark(draft, account, "is_action_arg");
    const inEvents = new Set<string>();
    for (const log of logs) {
      const event = parseNep297Log(log);
      if (event !== undefined) accountsNamedIn(event.data, inEvents);
    }
    for (const account of inEvents) mark(draft, account, "is_event_log");
  }

  /**
   * The receipt a transaction to its own signer becomes, which the chain does not keep (as
   * nearcore never stores local receipts): rebuilt from the transaction.
   */
  private firstReceipt(draft: TxDraft, receiptId: string): ReceiptView {
    const tx = draft.transaction;
    return {
      predecessor_id: tx.signer_id,
      receiver_id: tx.receiver_id,
      receipt_id: receiptId,
      receipt: {
        Action: {
          signer_id: tx.signer_id,
          signer_public_key: tx.public_key,
          gas_price: this.chain.blockByHeight(draft.blockHeight)?.view.header.gas_price ?? "0",
          output_data_receivers: [],
          input_data_ids: [],
          actions: tx.actions,
          is_promise_yield: false,
        },
      },
      priority: 0,
    };
  }

  /** The transaction's record as of now; a completed transaction is forgotten by the indexer (the store keeps it). */
  private record(draft: TxDraft): TransactionRecord {
    const completed = draft.pending.size === 0;
    const success = succeeded(draft);
    // Outcome views (with their proofs) as the chain shows them, for the receipts indexed so far.
    const views = new Map((this.chain.transactionStatus(draft.hash)?.outcome?.receipts_outcome ?? []).map((o) => [o.id, o]));
    const receipts = draft.receipts.map((receipt) => ({ receipt, execution_outcome: views.get(receipt.receipt_id)! }));
    const tx = draft.transaction;
    const accounts: AccountTxRow[] = [...draft.accounts]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([accountId, flags]) => ({
        account_id: accountId,
        transaction_hash: draft.hash,
        tx_block_height: draft.blockHeight,
        tx_block_timestamp: draft.timestamp,
        tx_index: draft.index,
        ...flags,
        is_success: success,
      }));
    if (completed) this.drafts.delete(draft.hash);
    return {
      row: {
        transaction_hash: draft.hash,
        signer_id: tx.signer_id,
        tx_block_height: draft.blockHeight,
        tx_index: draft.index,
        tx_block_hash: draft.blockHash,
        tx_block_timestamp: draft.timestamp,
        last_block_height: draft.lastBlockHeight,
        is_completed: completed,
        shard_id: draft.shardId,
        receiver_id: tx.receiver_id,
        signer_public_key: tx.public_key,
        priority_fee: tx.priority_fee,
        nonce: tx.nonce,
        is_relayed: draft.delegate !== undefined,
        real_signer_id: draft.delegate?.senderId ?? tx.signer_id,
        real_receiver_id: draft.delegate?.receiverId ?? tx.receiver_id,
        is_success: success,
        gas_burnt: Number(draft.gasBurnt),
        tokens_burnt: draft.tokensBurnt.toString(),
      },
      details: { transaction: tx, execution_outcome: draft.outcome, receipts, data_receipts: [] },
      accounts,
    };
  }
}

/** A store's answer, which the indexer needs at once (every store it is given answers synchronously so far). */
function settled<T>(value: Awaitable<T>): T {
  if (value instanceof Promise) throw new TypeError("HistoryIndexer needs a synchronous store (an asynchronous one is a later step)");
  return value as T;
}

/** The role flags of a stored account row. */
function flagsOf(row: AccountTxRow): Flags {
  const flags = { ...NO_FLAGS };
  for (const flag of Object.keys(NO_FLAGS) as (keyof Flags)[]) flags[flag] = row[flag];
  return flags;
}

function mark(draft: TxDraft, accountId: string, ...flags: (keyof Flags)[]): void {
  let row = draft.accounts.get(accountId);
  if (row === undefined) draft.accounts.set(accountId, (row = { ...NO_FLAGS }));
  for (const flag of flags) row[flag] = true;
}

/** The delegate action (NEP-366) of a relayed transaction. */
function delegateOf(actions: readonly ActionView[]): TxDraft["delegate"] {
  for (const action of actions) {
    if (typeof action !== "object") continue;
    // DelegateV2 (not yet enabled on mainnet) is not recognised as relayed yet.
    if ("Delegate" in action) return { senderId: action.Delegate.delegate_action.sender_id, receiverId: action.Delegate.delegate_action.receiver_id };
  }
  return undefined;
}

/**
 * nearcore's final status: follow SuccessReceiptId links from the transaction; the first
 * receipt that ended decides. A link not executed yet means still pending, so not successful.
 */
function succeeded(draft: TxDraft): boolean {
  let status: ExecutionOutcomeWithIdView["outcome"]["status"] | undefined = draft.outcome.outcome.status;
  for (let hops = 0; status !== undefined && hops <= draft.statuses.size; hops++) {
    if (typeof status !== "object") return false;
    if ("Failure" in status) return false;
    if ("SuccessValue" in status) return true;
    status = draft.statuses.get(status.SuccessReceiptId);
  }
  return false;
}
