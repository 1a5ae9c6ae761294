import type { ExecutionStatusView, ReceiptView } from "../../chain/node.js";
import { parseNep297Log } from "../nep297.js";
import { jsonArguments } from "./accountsNamedIn.js";
import type { TransferRow } from "./HistoryStore.js";

/** FastNEAR's transfers-indexer: a block's logs and actions are numbered, each with room for this many transfers. */
const TRANSFER_MULTIPLIER = 10_000;
const NATIVE_NEAR = "native:near";
const DECIMAL = /^(0|[1-9][0-9]{0,38})$/;

/** One movement of an asset: no sender for a mint, no receiver for a burn. */
interface Movement {
  readonly sender: string | undefined;
  readonly receiver: string | undefined;
  readonly amount: bigint;
  readonly asset: "near" | { readonly token: string };
  readonly type: TransferRow["transfer_type"];
  readonly transferIndex: number;
  readonly actionIndex: number | null;
  readonly logIndex: number | null;
  readonly methodName: string | null;
}

/** Where a receipt stands in its block: height, timestamp and the count of logs and actions before it. */
export interface ReceiptPlace {
  readonly height: number;
  readonly timestamp: string;
  /** Logs and actions of the block's receipts executed before this one. */
  readonly itemsBefore: number;
}

/** The logs and actions a receipt adds to its block's numbering (FastNEAR counts them even when it failed). */
export function transferItems(receipt: ReceiptView | undefined, logs: readonly string[]): number {
  const actions = receipt !== undefined && "Action" in receipt.receipt ? receipt.receipt.Action.actions.length : 0;
  return logs.length + actions;
}

/**
 * The transfers a receipt made, as FastNEAR's transfers-indexer finds them, one row per side
 * (the sender's with a negative amount): NEP-141 `ft_transfer`, `ft_mint`, `ft_burn` events;
 * NEAR `Transfer` actions; deposits above 1 yoctoNEAR attached to function calls;
 * `ft_transfer` / `ft_transfer_call` arguments the token logged no event for; the refund an
 * `ft_resolve_transfer` returned. A failed receipt moved nothing.
 */
export function transfersOf(receipt: ReceiptView, status: ExecutionStatusView, logs: readonly string[], txHash: string | null, at: ReceiptPlace): TransferRow[] {
  if (typeof status === "object" && "Failure" in status) return [];
  if (!("Action" in receipt.receipt)) return [];
  const { signer_id: signerId, actions } = receipt.receipt.Action;
  const token = receipt.receiver_id;
  const movements: Movement[] = [];
  // Token movements the events told, so that the same one in the arguments is not counted twice.
  const told = new Map<string, number>();
  const key = (m: { sender: string | undefined; receiver: string | undefined; amount: bigint }) => `${m.sender ?? ""} ${m.receiver ?? ""} ${m.amount}`;
  let item = at.itemsBefore;
  logs.forEach((log, logIndex) => {
    let transferIndex = item++ * TRANSFER_MULTIPLIER;
    const event = parseNep297Log(log);
    if (event === undefined || event.standard !== "nep141") return;
    if (event.event !== "ft_transfer" && event.event !== "ft_mint" && event.event !== "ft_burn") return;
    for (const data of event.data) {
      const index = transferIndex++;
      const entry = data as { old_owner_id?: unknown; new_owner_id?: unknown; owner_id?: unknown; amount?: unknown };
      if (typeof entry !== "object" || entry === null || typeof entry.amount !== "string" || !DECIMAL.test(entry.amount)) continue;
      const [sender, receiver] =
        event.event === "ft_transfer" ? [entry.old_owner_id, entry.new_owner_id] : event.event === "ft_mint" ? [undefined, entry.owner_id] : [entry.owner_id, undefined];
      if ((sender !== undefined && typeof sender !== "string") || (receiver !== undefined && typeof receiver !== "string")) continue;
      const movement = { sender, receiver, amount: BigInt(entry.amount) };
      told.set(key(movement), (told.get(key(movement)) ?? 0) + 1);
      movements.push({ ...movement, asset: { token }, type: "FtTransfer", transferIndex: index, actionIndex: null, logIndex, methodName: null });
    }
  });
  actions.forEach((action, actionIndex) => {
    const transferIndex = item++ * TRANSFER_MULTIPLIER;
    if (typeof action !== "object") return;
    const at = { actionIndex, logIndex: null };
    if ("Transfer" in action) {
      const amount = BigInt(action.Transfer.deposit);
      movements.push({ sender: receipt.predecessor_id, receiver: token, amount, asset: "near", type: "NativeTransfer", transferIndex: transferIndex + TRANSFER_MULTIPLIER - 1, ...at, methodName: null });
      return;
    }
    if (!("FunctionCall" in action)) return;
    const { method_name: methodName, args, deposit } = action.FunctionCall;
    const attached = BigInt(deposit);
    if (attached > 1n) {
      movements.push({ sender: receipt.predecessor_id, receiver: token, amount: attached, asset: "near", type: "AttachedDeposit", transferIndex: transferIndex + TRANSFER_MULTIPLIER - 2, ...at, methodName });
    }
    const parsed = jsonArguments(args) as { receiver_id?: unknown; sender_id?: unknown; amount?: unknown } | undefined;
    if (typeof parsed !== "object" || parsed === null || typeof parsed.amount !== "string" || !DECIMAL.test(parsed.amount) || typeof parsed.receiver_id !== "string") return;
    let movement: { sender: string | undefined; receiver: string | undefined; amount: bigint } | undefined;
    if (methodName === "ft_transfer" || methodName === "ft_transfer_call") {
      movement = { sender: receipt.predecessor_id, receiver: parsed.receiver_id, amount: BigInt(parsed.amount) };
    } else if (methodName === "ft_resolve_transfer" && typeof parsed.sender_id === "string") {
      const used = returnedAmount(status);
      const refund = used === undefined ? 0n : BigInt(parsed.amount) - used;
      if (refund > 0n) movement = { sender: parsed.receiver_id, receiver: parsed.sender_id, amount: refund };
    }
    if (movement === undefined) return;
    const seen = told.get(key(movement)) ?? 0;
    if (seen > 0) return void told.set(key(movement), seen - 1);
    movements.push({ ...movement, asset: { token }, type: "FtTransfer", transferIndex, ...at, methodName });
  });
  return movements.flatMap((m) => sides(m, receipt, signerId, txHash, at));
}

/** The u128 an `ft_resolve_transfer` returned (the amount the receiver kept), when it returned one. */
function returnedAmount(status: ExecutionStatusView): bigint | undefined {
  if (typeof status !== "object" || !("SuccessValue" in status)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(status.SuccessValue, "base64").toString("utf8"));
    return typeof value === "string" && DECIMAL.test(value) ? BigInt(value) : undefined;
  } catch {
    return undefined;
  }
}

/** A movement's rows: the sender's (negative) and the receiver's; a transfer to oneself is one row. */
function sides(m: Movement, receipt: ReceiptView, signerId: string, txHash: string | null, at: ReceiptPlace): TransferRow[] {
  const row = (accountId: string, other: string | undefined, amount: bigint): TransferRow => ({
    block_height: String(at.height),
    block_timestamp: at.timestamp,
    transaction_id: txHash,
    receipt_id: receipt.receipt_id,
    action_index: m.actionIndex,
    log_index: m.logIndex,
    transfer_index: m.transferIndex,
    signer_id: signerId,
    predecessor_id: receipt.predecessor_id,
    receipt_account_id: receipt.receiver_id,
    account_id: accountId,
    other_account_id: other ?? null,
    asset_id: m.asset === "near" ? NATIVE_NEAR : `nep141:${m.asset.token}`,
    asset_type: m.asset === "near" ? "Near" : "Ft",
    amount: amount.toString(),
    method_name: m.methodName,
    transfer_type: m.type,
    human_amount: m.asset === "near" ? Number(amount) / 1e24 : null,
    usd_amount: null,
    start_of_block_balance: null,
    end_of_block_balance: null,
  });
  const rows: TransferRow[] = [];
  if (m.receiver !== undefined) rows.push(row(m.receiver, m.sender, m.amount));
  if (m.sender !== undefined && m.sender !== m.receiver) rows.push(row(m.sender, m.receiver, -m.amount));
  return rows;
}
