import type { DelegateAction, VersionedDelegateActionPayload } from "./action.js";
import { writeDelegateAction, writeDelegatePayload } from "./actionCodec.js";
import { BorshWriter } from "./borshWriter.js";

/*
 * NEP-461 signable messages: u32 LE discriminant ‖ borsh(message), signed as sha256 of these
 * bytes. On-chain discriminants are 2^30 + NEP number, which keeps them out of the range a
 * borsh transaction can start with, so a delegate signature can never double as a tx signature.
 * The bytes only (no hash here): the node and the client each hash with their own sha256.
 */

/** 2^30 + 366 (NEP-366 meta transactions). */
export const DELEGATE_ACTION_PREFIX = 2 ** 30 + 366;
/**
 * 2^30 + 611 (NEP-611 gas keys), used for DelegateV2; the signed message is the versioned
 * payload including its V2 tag (nearcore `VersionedDelegateActionPayload::get_nep461_hash`).
 */
export const DELEGATE_ACTION_V2_PREFIX = 2 ** 30 + 611;

/** The bytes whose sha256 a Delegate (tag 8) signature covers. */
export function delegateActionMessage(delegateAction: DelegateAction): Uint8Array {
  const w = new BorshWriter().u32(DELEGATE_ACTION_PREFIX);
  writeDelegateAction(w, delegateAction);
  return w.toBytes();
}

/** The bytes whose sha256 a DelegateV2 (tag 14) signature covers. */
export function delegateActionV2Message(payload: VersionedDelegateActionPayload): Uint8Array {
  const w = new BorshWriter().u32(DELEGATE_ACTION_V2_PREFIX);
  writeDelegatePayload(w, payload);
  return w.toBytes();
}
