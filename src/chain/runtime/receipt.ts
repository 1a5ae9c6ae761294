import { base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../primitives/base64.js";
import { KeyType, formatPublicKey, type PublicKey } from "@shardkit/primitives/publicKey";
import { toActionView, type Action, type ActionView, type GlobalContractIdentifier } from "../transaction/index.js";

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
  /**
   * nearcore `ReceiptEnum::PromiseYield`: made by promise_yield_create, its one input is the
   * data a promise_yield_resume (or the timeout) delivers. It is stored in state as soon as it
   * is made (an "instant" receipt) and runs when that data arrives.
   */
  readonly isPromiseYield?: true;
  /**
   * nearcore `ActionReceiptV2::refund_to` (set by promise_set_refund_to): who gets the
   * receipt's deposit refunds instead of its predecessor. Absent = the predecessor.
   */
  readonly refundTo?: string;
}

/** nearcore `DataReceipt`: a promise result on its way to a waiting action receipt (`null` = failed). */
export interface DataReceipt {
  readonly type: "Data";
  readonly dataId: Uint8Array;
  readonly data: Uint8Array | null;
  /** nearcore `ReceiptEnum::PromiseResume`: the data for a yielded receipt (null = timed out). */
  readonly isPromiseResume?: true;
}

/**
 * nearcore `GlobalContractDistributionReceipt` (V2, with the GlobalContractDistributionNonce
 * feature of protocol 83): carries a global contract's code to `targetShard`, which stores it
 * and forwards it to the next shard id it has not reached. Routed by `targetShard`, not by
 * receiver (`system`); it has no execution outcome.
 */
export interface GlobalContractDistributionReceipt {
  readonly type: "GlobalContractDistribution";
  readonly id: GlobalContractIdentifier;
  readonly targetShard: number;
  readonly alreadyDeliveredShards: readonly number[];
  readonly code: Uint8Array;
  readonly nonce: bigint;
}

export interface Receipt {
  readonly predecessorId: string;
  readonly receiverId: string;
  /** 32 bytes; see receiptId.ts. */
  readonly receiptId: Uint8Array;
  readonly body: ActionReceipt | DataReceipt | GlobalContractDistributionReceipt;
}

export type ActionReceiptOf = Receipt & { readonly body: ActionReceipt };

/** A receipt being created; it gets its id once the receipt that creates it has executed. */
export type NewReceipt = Omit<Receipt, "receiptId">;

export function isActionReceipt(r: Receipt): r is ActionReceiptOf {
  return r.body.type === "Action";
}

export function isPromiseYield(r: Receipt | NewReceipt): boolean {
  return r.body.type === "Action" && r.body.isPromiseYield === true;
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
          refund_to?: string;
        };
      }
    | { Data: { data_id: string; data: string | null; is_promise_resume: boolean } }
    | {
        GlobalContractDistribution: {
          id: { CodeHash: string } | { AccountId: string };
          target_shard: number;
          already_delivered_shards: number[];
          code: string;
          nonce: number;
        };
      };
  priority: number;
}

function receiptEnumView(b: Receipt["body"]): ReceiptView["receipt"] {
  switch (b.type) {
    case "Action":
      return {
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
          is_promise_yield: b.isPromiseYield === true,
          ...(b.refundTo !== undefined ? { refund_to: b.refundTo } : {}),
        },
      };
    case "Data":
      return { Data: { data_id: base58Encode(b.dataId), data: b.data === null ? null : base64Encode(b.data), is_promise_resume: b.isPromiseResume === true } };
    case "GlobalContractDistribution":
      return {
        GlobalContractDistribution: {
          id: b.id.kind === "CodeHash" ? { CodeHash: base58Encode(b.id.codeHash) } : { AccountId: b.id.accountId },
          target_shard: b.targetShard,
          already_delivered_shards: [...b.alreadyDeliveredShards],
          code: base64Encode(b.code),
          nonce: Number(b.nonce),
        },
      };
  }
}

export function toReceiptView(r: Receipt): ReceiptView {
  return {
    predecessor_id: r.predecessorId,
    receiver_id: r.receiverId,
    receipt_id: base58Encode(r.receiptId),
    receipt: receiptEnumView(r.body),
    priority: 0,
  };
}
