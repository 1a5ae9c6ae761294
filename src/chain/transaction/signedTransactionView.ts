import { base58Encode } from "@shardkit/primitives/base58";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { toActionView, type ActionView } from "./actionView.js";
import { formatSignature } from "@shardkit/primitives/signature";
import type { DecodedSignedTransaction } from "@shardkit/primitives/transaction";

/**
 * nearcore `SignedTransactionView`, the `transaction` of tx-status results. `priority_fee`
 * is the never-activated NEP-541 field, always 0. `nonce_index` / `nonce_mode` are skipped
 * when nearcore has None; we emit `nonce_index` for gas-key nonces and `nonce_mode` for V1
 * transactions only (whether nearcore 2.13+ also sends nonce_mode for V0 is not verified).
 */
export interface SignedTransactionView {
  signer_id: string;
  public_key: string;
  nonce: number;
  receiver_id: string;
  actions: ActionView[];
  priority_fee: 0;
  signature: string;
  hash: string;
  nonce_index?: number;
  nonce_mode?: "monotonic" | "strict";
}

export function toSignedTransactionView(stx: DecodedSignedTransaction): SignedTransactionView {
  const tx = stx.transaction;
  const view: SignedTransactionView = {
    signer_id: tx.signerId,
    public_key: formatPublicKey(tx.publicKey),
    nonce: Number(tx.version === 0 ? tx.nonce : tx.nonce.nonce),
    receiver_id: tx.receiverId,
    actions: tx.actions.map(toActionView),
    priority_fee: 0,
    signature: formatSignature(stx.signature),
    hash: base58Encode(stx.hash),
  };
  if (tx.version === 1) {
    if (tx.nonce.kind === "GasKeyNonce") view.nonce_index = tx.nonce.nonceIndex;
    view.nonce_mode = tx.nonceMode === "Monotonic" ? "monotonic" : "strict";
  }
  return view;
}
