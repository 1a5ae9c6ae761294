import type { PublicKey } from "@shardkit/primitives/publicKey";
import { delegateActionHash, delegateActionV2Hash, type Action, type NonDelegateAction, type Signature, type TransactionNonce } from "../transaction/index.js";

/**
 * What nearcore's runtime reads from either delegate action (`VersionedDelegateActionRef`):
 * Delegate (tag 8) carries a plain access-key nonce, DelegateV2 (tag 14) a TransactionNonce
 * that may pick a gas key's nonce slot. Fees, deposits, gas and execution treat both alike.
 */
export interface DelegateBody {
  readonly senderId: string;
  readonly receiverId: string;
  readonly actions: readonly NonDelegateAction[];
  readonly nonce: TransactionNonce;
  readonly maxBlockHeight: bigint;
  readonly publicKey: PublicKey;
  /** The NEP-461 hash the signature covers (prefix 2^30+366 for Delegate, 2^30+611 for DelegateV2). */
  signedHash(): Uint8Array;
  readonly signature: Signature;
}

type DelegateKind = Extract<Action, { type: "Delegate" | "DelegateV2" }>;

/** The delegate body of `a`, or undefined when `a` is not a delegate action. */
export function delegateBodyOf(a: DelegateKind): DelegateBody;
export function delegateBodyOf(a: Action): DelegateBody | undefined;
export function delegateBodyOf(a: Action): DelegateBody | undefined {
  if (a.type === "Delegate") {
    const d = a.delegateAction;
    return {
      senderId: d.senderId,
      receiverId: d.receiverId,
      actions: d.actions,
      nonce: { kind: "Nonce", nonce: d.nonce },
      maxBlockHeight: d.maxBlockHeight,
      publicKey: d.publicKey,
      signedHash: () => delegateActionHash(d),
      signature: a.signature,
    };
  }
  if (a.type === "DelegateV2") {
    const d = a.payload.delegateAction;
    return {
      senderId: d.senderId,
      receiverId: d.receiverId,
      actions: d.actions,
      nonce: d.nonce,
      maxBlockHeight: d.maxBlockHeight,
      publicKey: d.publicKey,
      signedHash: () => delegateActionV2Hash(a.payload),
      signature: a.signature,
    };
  }
  return undefined;
}
