import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { sha256 } from "../primitives/sha256.js";
import type { DelegateAction, VersionedDelegateActionPayload } from "@shardkit/primitives/action";
import { writeDelegateAction, writeDelegatePayload } from "@shardkit/primitives/actionCodec";

/*
 * NEP-461 signable messages: sha256(u32 LE discriminant ‖ borsh(message)). On-chain
 * discriminants are 2^30 + NEP number, which keeps them out of the range a borsh
 * transaction can start with, so a delegate signature can never double as a tx signature.
 */

/** 2^30 + 366 (NEP-366 meta transactions). */
export const DELEGATE_ACTION_PREFIX = 2 ** 30 + 366;
/**
 * 2^30 + 611 (NEP-611 gas keys), used for DelegateV2; the signed message is the versioned
 * payload including its V2 tag (nearcore `VersionedDelegateActionPayload::get_nep461_hash`).
 */
export const DELEGATE_ACTION_V2_PREFIX = 2 ** 30 + 611;

/** The 32-byte hash a Delegate (tag 8) signature covers. */
export function delegateActionHash(delegateAction: DelegateAction): Uint8Array {
  const w = new BorshWriter().u32(DELEGATE_ACTION_PREFIX);
  writeDelegateAction(w, delegateAction);
  return sha256(w.toBytes());
}

/** The 32-byte hash a DelegateV2 (tag 14) signature covers. */
export function delegateActionV2Hash(payload: VersionedDelegateActionPayload): Uint8Array {
  const w = new BorshWriter().u32(DELEGATE_ACTION_V2_PREFIX);
  writeDelegatePayload(w, payload);
  return sha256(w.toBytes());
}
