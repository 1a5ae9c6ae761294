import { base58Encode } from "../primitives/base58.js";
import { base64Encode } from "../primitives/base64.js";
import { KeyType, formatPublicKey, type PublicKey } from "../primitives/publicKey.js";
import { toActionView, type Action, type ActionView } from "../transaction/index.js";

/** The predecessor (and signer) of refund receipts. */
export const SYSTEM_ACCOUNT = "system";

/** nearcore `PublicKey::empty(ED25519)`: the signer key of balance refunds ("ed25519:111…1"). */
export const EMPTY_ED25519_KEY: PublicKey = { keyType: KeyType.ED25519, data: new Uint8Array(32) };

/** Where the result of an action receipt is sent as a data receipt. */
export interface DataReceiver {
  readonly dataId: Uint8Array;
  readonly receiverId: string;
}

/** nearcore `ActionReceipt`. */
export interface ActionReceipt {
  readonly type: "Action";
  readonly signerId: string;
  readonly signerPublicKey: PublicKey;
  /** The price its gas was bought at (0 for refunds). */
  readonly gasPrice: bigint;
  readonly outputDataReceivers: readonly DataReceiver[];
  /** Data ids that must all have arrived before the receipt executes. */
  readonly inputDataIds: readonly Uint8Array[];
  readonly actions: readonly Action[];
}

/** nearcore `DataReceipt`: a promise result on its way to a waiting action receipt (`null` = failed). */
export interface DataReceipt {
  readonly type: "Data";
  readonly dataId: Uint8Array;
  readonly data: Uint8Array | null;
}

export interface Receipt {
  readonly predecessorId: string;
  readonly receiverId: string;
  /** 32 bytes; see receiptId.ts. */
  readonly receiptId: Uint8Array;
  readonly body: ActionReceipt | DataReceipt;
}

export type ActionReceiptOf = Receipt & { readonly body: ActionReceipt };

/** A receipt being created; it gets its id once the receipt that creates it has executed. */
export type NewReceipt = Omit<Receipt, "receiptId">;

export function isActionReceipt(r: Receipt): r is ActionReceiptOf {
  return r.body.type === "Action";
}

/** A refund from `system` of tokens to their owner (failed deposits, deleted account balances). */
export function balanceRefundReceipt(receiverId: string, amount: bigint): NewReceipt {
  return {
    predecessorId: SYSTEM_ACCOUNT,
    receiverId,
    body: {
      type: "Action",
      signerId: SYSTEM_ACCOUNT,
      signerPublicKey: EMPTY_ED25519_KEY,
      gasPrice: 0n,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: [{ type: "Transfer", deposit: amount }],
    },
  };
}

/**
 * A gas refund from `system` to the signer; it names the signer's key so that executing it
 * can top up a function-call key's allowance (nearcore `Receipt::new_gas_refund`).
 */
export function gasRefundReceipt(signerId: string, signerKey: PublicKey, amount: bigint): NewReceipt {
  return {
    predecessorId: SYSTEM_ACCOUNT,
    receiverId: signerId,
    body: {
      type: "Action",
      signerId,
      signerPublicKey: signerKey,
      gasPrice: 0n,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: [{ type: "Transfer", deposit: amount }],
    },
  };
}

/** nearcore `ReceiptView` JSON (EXPERIMENTAL_receipt, EXPERIMENTAL_tx_status `receipts`). */
export interface ReceiptView {
  predecessor_id: string;
  receiver_id: string;
  receipt_id: string;
  receipt:
    | {
        Action: {
          signer_id: string;
          signer_public_key: string;
          gas_price: string;
          output_data_receivers: { data_id: string; receiver_id: string }[];
          input_data_ids: string[];
          actions: ActionView[];
          is_promise_yield: boolean;
        };
      }
    | { Data: { data_id: string; data: string | null; is_promise_resume: boolean } };
  priority: number;
}

export function toReceiptView(r: Receipt): ReceiptView {
  const b = r.body;
  return {
    predecessor_id: r.predecessorId,
    receiver_id: r.receiverId,
    receipt_id: base58Encode(r.receiptId),
    receipt:
      b.type === "Action"
        ? {
            Action: {
              signer_id: b.signerId,
              signer_public_key: formatPublicKey(b.signerPublicKey),
              gas_price: b.gasPrice.toString(),
              output_data_receivers: b.outputDataReceivers.map((d) => ({
                data_id: base58Encode(d.dataId),
                receiver_id: d.receiverId,
              })),
              input_data_ids: b.inputDataIds.map((id) => base58Encode(id)),
              actions: b.actions.map(toActionView),
              is_promise_yield: false,
            },
          }
        : { Data: { data_id: base58Encode(b.dataId), data: b.data === null ? null : base64Encode(b.data), is_promise_resume: false } },
    priority: 0,
  };
}
