import { sha256 } from "@noble/hashes/sha256";
import type { NonDelegateAction, SignedDelegateAction } from "@shardkit/primitives/action";
import { delegateActionMessage } from "@shardkit/primitives/delegateActionMessage";
import type { Signer } from "./keys.js";

/** What a NEP-366 delegate action (a meta transaction's inner part) needs besides its signer's key. */
export interface DelegateActionFields {
  /** The account whose key signs and on whose behalf the actions run. */
  senderId: string;
  receiverId: string;
  actions: readonly NonDelegateAction[];
  /** Must be above the access key's nonce: the delegate action consumes it like a transaction. */
  nonce: bigint;
  /** The last block height at which a relayer may still submit it. */
  maxBlockHeight: bigint;
}

/**
 * Signs a delegate action with `signer` (sha256 of the 2^30+366-prefixed borsh body, as nearcore
 * verifies it) and returns the `Delegate` action a relayer puts in its own transaction, sent to
 * `senderId`: the relayer pays the gas, the actions run as `senderId`.
 */
export async function signDelegateAction(fields: DelegateActionFields, signer: Signer): Promise<SignedDelegateAction> {
  const delegateAction = { ...fields, publicKey: signer.publicKey };
  const data = await signer.sign(sha256(delegateActionMessage(delegateAction)));
  return { type: "Delegate", delegateAction, signature: { keyType: signer.publicKey.keyType, data } };
}
