import { ACCOUNT_ROLE_FLAGS, type AccountRoleFlag, type AccountTxRow, type ReceiptRow, type TransferRow } from "./HistoryStore.js";

/*
 * The data-dir index's rows as it stores them (LmdbHistoryStore FORMAT 4): JSON arrays of the
 * row's values in a fixed order instead of objects, and an account row without what its key
 * holds, so that a transaction's ~12 rows cost the indexer (which JSON-encodes every value it
 * writes) a third of the bytes they used to.
 */

/** An account row's value: what its key (account, tx_block_height, tx_index) does not hold; role flags as bits (bit i: ACCOUNT_ROLE_FLAGS[i]). */
export type StoredAccountRow = readonly [transactionHash: string, timestamp: string, flags: number];

/** Role flags as bits: bit i set for ACCOUNT_ROLE_FLAGS[i]. */
export function roleBits(row: AccountTxRow): number {
  return ACCOUNT_ROLE_FLAGS.reduce((sum, flag, i) => (row[flag] ? sum | (1 << i) : sum), 0);
}

export function toStoredAccountRow(row: AccountTxRow): StoredAccountRow {
  return [row.transaction_hash, row.tx_block_timestamp, roleBits(row)];
}

/** The row back from its key's parts and its stored value. */
export function fromStoredAccountRow(accountId: string, height: number, index: number, stored: StoredAccountRow): AccountTxRow {
  const [hash, timestamp, bits] = stored;
  const has = (flag: AccountRoleFlag) => (bits & (1 << ACCOUNT_ROLE_FLAGS.indexOf(flag))) !== 0;
  return {
    account_id: accountId,
    transaction_hash: hash,
    tx_block_height: height,
    tx_block_timestamp: timestamp,
    tx_index: index,
    is_signer: has("is_signer"),
    is_delegated_signer: has("is_delegated_signer"),
    is_real_signer: has("is_real_signer"),
    is_any_signer: has("is_any_signer"),
    is_predecessor: has("is_predecessor"),
    is_explicit_refund_to: has("is_explicit_refund_to"),
    is_receiver: has("is_receiver"),
    is_real_receiver: has("is_real_receiver"),
    is_function_call: has("is_function_call"),
    is_action_arg: has("is_action_arg"),
    is_event_log: has("is_event_log"),
    is_success: has("is_success"),
  };
}

export type StoredReceiptRow = readonly [
  receiptId: string,
  blockHeight: number,
  blockTimestamp: string,
  receiptIndex: number,
  appearBlockHeight: number,
  appearReceiptIndex: number,
  transactionHash: string,
  txBlockHeight: number,
  txBlockTimestamp: string,
  txIndex: number,
  predecessorId: string,
  receiverId: string,
  receiptType: ReceiptRow["receipt_type"],
  priority: number,
  shardId: number,
  isSuccess: boolean,
];

export function toStoredReceiptRow(r: ReceiptRow): StoredReceiptRow {
  return [
    r.receipt_id,
    r.block_height,
    r.block_timestamp,
    r.receipt_index,
    r.appear_block_height,
    r.appear_receipt_index,
    r.transaction_hash,
    r.tx_block_height,
    r.tx_block_timestamp,
    r.tx_index,
    r.predecessor_id,
    r.receiver_id,
    r.receipt_type,
    r.priority,
    r.shard_id,
    r.is_success,
  ];
}

export function fromStoredReceiptRow(s: StoredReceiptRow): ReceiptRow {
  return {
    receipt_id: s[0],
    block_height: s[1],
    block_timestamp: s[2],
    receipt_index: s[3],
    appear_block_height: s[4],
    appear_receipt_index: s[5],
    transaction_hash: s[6],
    tx_block_height: s[7],
    tx_block_timestamp: s[8],
    tx_index: s[9],
    predecessor_id: s[10],
    receiver_id: s[11],
    receipt_type: s[12],
    priority: s[13],
    shard_id: s[14],
    is_success: s[15],
  };
}

/** A transfer row's value, without the parts that are always null (`usd_amount`, the balances). */
export type StoredTransferRow = readonly [
  blockHeight: string,
  blockTimestamp: string,
  transactionId: string | null,
  receiptId: string,
  actionIndex: number | null,
  logIndex: number | null,
  transferIndex: number,
  signerId: string,
  predecessorId: string,
  receiptAccountId: string,
  accountId: string,
  otherAccountId: string | null,
  assetId: string,
  assetType: TransferRow["asset_type"],
  amount: string,
  methodName: string | null,
  transferType: TransferRow["transfer_type"],
  humanAmount: number | null,
];

export function toStoredTransferRow(t: TransferRow): StoredTransferRow {
  return [
    t.block_height,
    t.block_timestamp,
    t.transaction_id,
    t.receipt_id,
    t.action_index,
    t.log_index,
    t.transfer_index,
    t.signer_id,
    t.predecessor_id,
    t.receipt_account_id,
    t.account_id,
    t.other_account_id,
    t.asset_id,
    t.asset_type,
    t.amount,
    t.method_name,
    t.transfer_type,
    t.human_amount,
  ];
}

export function fromStoredTransferRow(s: StoredTransferRow): TransferRow {
  return {
    block_height: s[0],
    block_timestamp: s[1],
    transaction_id: s[2],
    receipt_id: s[3],
    action_index: s[4],
    log_index: s[5],
    transfer_index: s[6],
    signer_id: s[7],
    predecessor_id: s[8],
    receipt_account_id: s[9],
    account_id: s[10],
    other_account_id: s[11],
    asset_id: s[12],
    asset_type: s[13],
    amount: s[14],
    method_name: s[15],
    transfer_type: s[16],
    human_amount: s[17],
    usd_amount: null,
    start_of_block_balance: null,
    end_of_block_balance: null,
  };
}
