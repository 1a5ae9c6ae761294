import type { ExecutionOutcomeWithIdView, ExecutionStatusView, ReceiptView } from "../../chain/node.js";
import type { SignedTransactionView } from "../../chain/transaction/index.js";
import { parseNep297Log } from "../nep297.js";
import { accountsNamedIn, jsonArguments } from "./accountsNamedIn.js";
import type { BlockWork } from "./historyBlockRow.js";
import {
  ACCOUNT_ROLE_FLAGS,
  historyOutcome,
  historyReceipt,
  type AccountRoleFlag,
  type AccountTxRow,
  type BlockRow,
  type HistoryBlockUpdate,
  type HistoryOutcome,
  type HistoryReceipt,
  type InFlightReceipts,
  type ReceiptRow,
  type TransactionDetails,
  type TransactionRecord,
  type TransferRow,
} from "./HistoryStore.js";
import { transferItems, transfersOf } from "./transfersOf.js";

/** A transaction a block included, at its block-wide `tx_index`. */
export interface IncludedTransaction {
  readonly hash: string;
  readonly index: number;
  readonly shardId: number;
  readonly transaction: SignedTransactionView;
  readonly outcome: ExecutionOutcomeWithIdView;
}

/** A receipt a block executed. */
export interface ExecutedReceipt {
  readonly id: string;
  /** The receipts its execution created (a refund, when any, last). */
  readonly receiptIds: readonly string[];
  readonly gasBurnt: bigint;
  readonly tokensBurnt: bigint;
  readonly logs: readonly string[];
  readonly status: ExecutionStatusView;
  /** Undefined for a transaction's local receipt (to its own signer), which nearcore does not keep: rebuilt from the transaction. */
  readonly receipt: ReceiptView | undefined;
  /** The shard it executed on (its receiver's). */
  readonly shardId: number;
  /** Its outcome (with its proof) as the source shows it in the transaction's status. */
  readonly view: ExecutionOutcomeWithIdView;
}

/**
 * What a block did, from wherever it comes (the local chain's commit, an upstream's RPC): the
 * block's row, the transactions it included and the receipts it executed, in execution order.
 */
export interface HistoryBlockInput {
  readonly height: number;
  readonly hash: string;
  readonly timestamp: string;
  readonly gasPrice: string;
  readonly row: (work: BlockWork) => BlockRow;
  /** Block-wide count of included transactions (some may be unknown to the source: `transactions` lists the known ones). */
  readonly transactionCount: number;
  readonly transactions: readonly IncludedTransaction[];
  /**
   * The receipts that joined the block's new chunks, in FastNEAR's order (`appear_receipt_index`):
   * chunk by chunk in shard order, its transactions' local receipts (signer = receiver: the
   * chain's record, or rebuilt as `localReceipt`), then the receipts its shard's previous chunk sent (nearcore's
   * `prev_outgoing_receipts`, data receipts included).
   */
  readonly appeared: readonly ReceiptView[];
  readonly receipts: readonly ExecutedReceipt[];
}

type Flags = Record<Exclude<AccountRoleFlag, "is_success">, boolean>;
type ActionView = SignedTransactionView["actions"][number];

/** Every role flag of an account row but `is_success`, unset. */
export const NO_ROLE_FLAGS: Flags = {
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
  readonly outcome: HistoryOutcome;
  readonly blockHeight: number;
  readonly blockHash: string;
  readonly timestamp: string;
  readonly index: number;
  readonly shardId: number;
  readonly delegate: { readonly senderId: string; readonly receiverId: string } | undefined;
  /** The gas price of its block (its local receipt's), when known. */
  readonly gasPrice: string | undefined;
  lastBlockHeight: number;
  gasBurnt: bigint;
  tokensBurnt: bigint;
  /** Receipt ids announced by an outcome and not executed yet. */
  readonly pending: Set<string>;
  /** Receipt id → how it ended (for the SuccessReceiptId chain that decides success). */
  readonly statuses: Map<string, ExecutionStatusView>;
  /** Executed receipts with their outcomes, in execution order (kept, so a later block only adds its own). */
  readonly receipts: TransactionDetails["receipts"][number][];
  /** The data receipts its action receipts took, in that order. */
  readonly dataReceipts: HistoryReceipt[];
  /** Its receipts that appeared and have not executed: receipt id → where it appeared. */
  readonly appeared: Map<string, HistoryReceipt>;
  /** Data receipts that appeared for its waiting action receipts: data id → where. */
  readonly dataAppeared: Map<string, HistoryReceipt>;
  readonly accounts: Map<string, Flags>;
}

/** Data receipts kept at most while no known receipt waits for them (a transaction not followed). */
const MAX_LOOSE_DATA = 10_000;

/**
 * Turns blocks into history updates: per transaction its block row, its receipts with outcomes
 * and one row per account involved with the roles it played, rewritten each time a block
 * executes one of its receipts, until none is pending. Holds the transactions still executing
 * (`resume` takes them back from a store). Used by the local HistoryIndexer and by the
 * gateway's upstream follower, so both write the same rows.
 */
export class HistoryBuilder {
  private readonly drafts = new Map<string, TxDraft>();
  /** Pending receipt id → its transaction's hash. */
  private readonly receiptTx = new Map<string, string>();
  /** Data id → the transaction whose appeared action receipt waits for that data. */
  private readonly dataTx = new Map<string, string>();
  /** Data receipts that appeared before any known receipt waited for them: data id → where (oldest first). */
  private readonly looseData = new Map<string, HistoryReceipt>();

  /** The transactions a block of height `height` may advance: those with receipts still pending. */
  get openTransactions(): readonly { readonly hash: string; readonly signerId: string }[] {
    return [...this.drafts.values()].map((d) => ({ hash: d.hash, signerId: d.transaction.signer_id }));
  }

  /** Forgets every transaction in progress (before resuming from a store again). */
  clear(): void {
    this.drafts.clear();
    this.receiptTx.clear();
    this.dataTx.clear();
    this.looseData.clear();
  }

  /** A transaction a store holds as incomplete, back as a draft (its receipts still to come). */
  resume(record: TransactionRecord, gasPrice?: string): void {
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
      gasPrice,
      lastBlockHeight: row.last_block_height,
      gasBurnt: BigInt(row.gas_burnt),
      tokensBurnt: BigInt(row.tokens_burnt),
      pending,
      statuses: new Map(details.receipts.map((r) => [r.receipt.receipt_id, r.execution_outcome.outcome.status])),
      receipts: [...details.receipts],
      dataReceipts: [...details.data_receipts],
      appeared: new Map(),
      dataAppeared: new Map(),
      accounts: new Map(record.accounts.map((a) => [a.account_id, flagsOf(a)])),
    };
    this.drafts.set(draft.hash, draft);
    for (const id of pending) this.receiptTx.set(id, draft.hash);
    for (const receipt of record.inFlight?.receipts ?? []) this.addAppeared(draft, receipt);
    for (const data of record.inFlight?.dataReceipts ?? []) if ("Data" in data.receipt) draft.dataAppeared.set(data.receipt.Data.data_id, data);
  }

  /** An action receipt of `draft` appeared: where, and which data it will wait for. */
  private addAppeared(draft: TxDraft, receipt: HistoryReceipt): void {
    draft.appeared.set(receipt.receipt_id, receipt);
    if ("Action" in receipt.receipt) for (const dataId of receipt.receipt.Action.input_data_ids) this.dataTx.set(dataId, draft.hash);
  }

  /**
   * The block's appeared receipts, at their `appear_receipt_index`: action receipts to their
   * transactions, then data receipts to the transactions whose receipts wait for them (a data
   * receipt appears after the receipt that takes it). Returns the transactions that changed.
   */
  private appear(input: HistoryBlockInput): Set<TxDraft> {
    const changed = new Set<TxDraft>();
    const data: HistoryReceipt[] = [];
    input.appeared.forEach((view, index) => {
      const receipt = historyReceipt(view, input, index);
      if ("Data" in view.receipt) return void data.push(receipt);
      const hash = "Action" in view.receipt ? this.receiptTx.get(view.receipt_id) : undefined;
      const draft = hash === undefined ? undefined : this.drafts.get(hash);
      if (draft === undefined) return;
      this.addAppeared(draft, receipt);
      changed.add(draft);
    });
    for (const receipt of data) {
      if (!("Data" in receipt.receipt)) continue;
      const dataId = receipt.receipt.Data.data_id;
      const hash = this.dataTx.get(dataId);
      const draft = hash === undefined ? undefined : this.drafts.get(hash);
      if (draft === undefined) {
        this.looseData.set(dataId, receipt);
        if (this.looseData.size > MAX_LOOSE_DATA) this.looseData.delete(this.looseData.keys().next().value!);
        continue;
      }
      draft.dataAppeared.set(dataId, receipt);
      changed.add(draft);
    }
    return changed;
  }

  /** The data receipt `dataId` that appeared, taken out of what waits (undefined: not seen, as for a block indexed before its data appeared). */
  private takeData(draft: TxDraft, dataId: string): HistoryReceipt | undefined {
    this.dataTx.delete(dataId);
    const data = draft.dataAppeared.get(dataId) ?? this.looseData.get(dataId);
    draft.dataAppeared.delete(dataId);
    this.looseData.delete(dataId);
    return data;
  }

  /** The block's history update; the transactions it completes are forgotten here (the store keeps them). */
  update(input: HistoryBlockInput): HistoryBlockUpdate {
    let gasBurnt = 0n;
    let tokensBurnt = 0n;
    const started: TxDraft[] = [];
    for (const tx of input.transactions) {
      const draft = this.startTransaction(tx, input);
      gasBurnt += draft.gasBurnt;
      tokensBurnt += draft.tokensBurnt;
      started.push(draft);
    }
    const touched = new Set(started);
    for (const draft of this.appear(input)) touched.add(draft);
    const receipts: ReceiptRow[] = [];
    const transfers: TransferRow[] = [];
    let itemsBefore = 0;
    // FastNEAR's receipt_index: over the block's executed receipts of known transactions, each action receipt after the data receipts it took.
    let receiptIndex = 0;
    for (const executed of input.receipts) {
      gasBurnt += executed.gasBurnt;
      tokensBurnt += executed.tokensBurnt;
      const hash = this.receiptTx.get(executed.id);
      const draft = hash === undefined ? undefined : this.drafts.get(hash);
      const place = { height: input.height, timestamp: input.timestamp, itemsBefore };
      const known = executed.receipt ?? (draft === undefined ? undefined : localReceipt(draft.transaction, executed.id, draft.gasPrice ?? "0"));
      itemsBefore += transferItems(known, executed.logs);
      if (known !== undefined) transfers.push(...transfersOf(known, executed.status, executed.logs, draft?.hash ?? null, place));
      // A receipt of a transaction is always known (`localReceipt` rebuilds the one nearcore does not keep).
      if (draft === undefined || known === undefined) continue;
      this.receiptTx.delete(executed.id);
      draft.pending.delete(executed.id);
      for (const child of executed.receiptIds) {
        draft.pending.add(child);
        this.receiptTx.set(child, draft.hash);
      }
      draft.lastBlockHeight = input.height;
      draft.gasBurnt += executed.gasBurnt;
      draft.tokensBurnt += executed.tokensBurnt;
      const receipt = known;
      this.addReceiptRoles(draft, receipt, executed.logs);
      const succeeded = !(typeof executed.status === "object" && "Failure" in executed.status);
      draft.statuses.set(executed.id, executed.status);
      touched.add(draft);
      const row = (of: HistoryReceipt, index: number, type: ReceiptRow["receipt_type"], isSuccess: boolean): ReceiptRow => ({
        receipt_id: of.receipt_id,
        block_height: input.height,
        block_timestamp: input.timestamp,
        receipt_index: index,
        appear_block_height: of.block_height,
        appear_receipt_index: of.receipt_index,
        transaction_hash: draft.hash,
        tx_block_height: draft.blockHeight,
        tx_block_timestamp: draft.timestamp,
        tx_index: draft.index,
        predecessor_id: of.predecessor_id,
        receiver_id: of.receiver_id,
        receipt_type: type,
        priority: of.priority,
        shard_id: executed.shardId,
        is_success: isSuccess,
      });
      for (const dataId of "Action" in receipt.receipt ? receipt.receipt.Action.input_data_ids : []) {
        const data = this.takeData(draft, dataId);
        if (data === undefined) continue;
        draft.dataReceipts.push(data);
        receipts.push(row(data, receiptIndex++, "Data", true));
      }
      const index = receiptIndex++;
      // Where it appeared (unknown for a receipt that appeared before the index followed its transaction: where it executed).
      const appeared = draft.appeared.get(executed.id) ?? historyReceipt(receipt, input, index);
      draft.appeared.delete(executed.id);
      draft.receipts.push({ receipt: appeared, execution_outcome: historyOutcome(executed.view, input, index) });
      receipts.push(row(appeared, index, "Action", succeeded));
    }
    const transactions = [...touched].map((draft) => this.record(draft));
    return { block: input.row({ transactions: input.transactionCount, receipts: receiptIndex, gasBurnt, tokensBurnt }), transactions, receipts, transfers };
  }

  /** A transaction the block included: its conversion outcome and its signers' rows. */
  private startTransaction(tx: IncludedTransaction, input: HistoryBlockInput): TxDraft {
    const { transaction } = tx;
    const outcome = historyOutcome(tx.outcome, input, tx.index);
    const delegate = delegateOf(transaction.actions);
    const draft: TxDraft = {
      hash: tx.hash,
      transaction,
      outcome,
      blockHeight: input.height,
      blockHash: input.hash,
      timestamp: input.timestamp,
      index: tx.index,
      shardId: tx.shardId,
      delegate,
      gasPrice: input.gasPrice,
      lastBlockHeight: input.height,
      gasBurnt: BigInt(outcome.outcome.gas_burnt),
      tokensBurnt: BigInt(outcome.outcome.tokens_burnt),
      pending: new Set(outcome.outcome.receipt_ids),
      statuses: new Map(),
      receipts: [],
      dataReceipts: [],
      appeared: new Map(),
      dataAppeared: new Map(),
      accounts: new Map(),
    };
    this.drafts.set(tx.hash, draft);
    for (const id of outcome.outcome.receipt_ids) this.receiptTx.set(id, tx.hash);
    mark(draft, transaction.signer_id, "is_signer", "is_any_signer");
    if (delegate === undefined) mark(draft, transaction.signer_id, "is_real_signer");
    else mark(draft, delegate.senderId, "is_delegated_signer", "is_real_signer", "is_any_signer");
    return draft;
  }

  /** The roles a receipt gives: predecessor, explicit refund_to, receiver, function-call target, accounts named in its arguments and events. */
  private addReceiptRoles(draft: TxDraft, receipt: ReceiptView, logs: readonly string[]): void {
    const refund = receipt.predecessor_id === "system";
    const action = "Action" in receipt.receipt ? receipt.receipt.Action : undefined;
    const actions = action?.actions ?? [];
    if (!refund) mark(draft, receipt.predecessor_id, "is_predecessor");
    // promise_set_refund_to (ActionReceiptV2) names who gets the receipt's deposit refunds.
    if (action?.refund_to !== undefined) mark(draft, action.refund_to, "is_explicit_refund_to");
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

  /** The transaction's record as of now; a completed transaction is forgotten (the store keeps it). */
  private record(draft: TxDraft): TransactionRecord {
    const completed = draft.pending.size === 0;
    const success = succeeded(draft);
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
    const inFlight: InFlightReceipts | undefined =
      completed || draft.appeared.size + draft.dataAppeared.size === 0 ? undefined : { receipts: [...draft.appeared.values()], dataReceipts: [...draft.dataAppeared.values()] };
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
      details: { transaction: tx, execution_outcome: draft.outcome, receipts: [...draft.receipts], data_receipts: [...draft.dataReceipts] },
      accounts,
      ...(inFlight !== undefined && { inFlight }),
    };
  }
}

/**
 * The receipt a transaction to its own signer becomes, which nearcore does not keep (nor list
 * in a transaction's status): rebuilt from the transaction and its block's gas price.
 */
export function localReceipt(tx: SignedTransactionView, receiptId: string, gasPrice: string): ReceiptView {
  return {
    predecessor_id: tx.signer_id,
    receiver_id: tx.receiver_id,
    receipt_id: receiptId,
    receipt: {
      Action: {
        signer_id: tx.signer_id,
        signer_public_key: tx.public_key,
        gas_price: gasPrice,
        output_data_receivers: [],
        input_data_ids: [],
        actions: tx.actions,
        is_promise_yield: false,
      },
    },
    priority: 0,
  };
}

/** The role flags of a stored account row. */
function flagsOf(row: AccountTxRow): Flags {
  const flags = { ...NO_ROLE_FLAGS };
  for (const flag of ACCOUNT_ROLE_FLAGS) if (flag !== "is_success") flags[flag] = row[flag];
  return flags;
}

function mark(draft: TxDraft, accountId: string, ...flags: (keyof Flags)[]): void {
  let row = draft.accounts.get(accountId);
  if (row === undefined) draft.accounts.set(accountId, (row = { ...NO_ROLE_FLAGS }));
  for (const flag of flags) row[flag] = true;
}

/** The delegate action (NEP-366) of a relayed transaction. */
function delegateOf(actions: readonly ActionView[]): TxDraft["delegate"] {
  for (const action of actions) {
    if (typeof action !== "object") continue;
    if ("Delegate" in action) return { senderId: action.Delegate.delegate_action.sender_id, receiverId: action.Delegate.delegate_action.receiver_id };
    if ("DelegateV2" in action) {
      const inner = action.DelegateV2.delegate_action.V2;
      return { senderId: inner.sender_id, receiverId: inner.receiver_id };
    }
  }
  return undefined;
}

/**
 * nearcore's final status: follow SuccessReceiptId links from the transaction; the first
 * receipt that ended decides. A link not executed yet means still pending, so not successful.
 */
function succeeded(draft: TxDraft): boolean {
  let status: ExecutionStatusView | undefined = draft.outcome.outcome.status;
  for (let hops = 0; status !== undefined && hops <= draft.statuses.size; hops++) {
    if (typeof status !== "object") return false;
    if ("Failure" in status) return false;
    if ("SuccessValue" in status) return true;
    status = draft.statuses.get(status.SuccessReceiptId);
  }
  return false;
}
