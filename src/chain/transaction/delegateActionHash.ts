import type { DelegateAction, VersionedDelegateActionPayload } from "@shardkit/primitives/action";
import { delegateActionMessage, delegateActionV2Message } from "@shardkit/primitives/delegateActionMessage";
import { sha256 } from "../primitives/sha256.js";

export { DELEGATE_ACTION_PREFIX, DELEGATE_ACTION_V2_PREFIX } from "@shardkit/primitives/delegateActionMessage";

/** The 32-byte hash a Delegate (tag 8) signature covers (NEP-461, see delegateActionMessage). */
export function delegateActionHash(delegateAction: DelegateAction): Uint8Array {
  return sha256(delegateActionMessage(delegateAction));
}

/** The 32-byte hash a DelegateV2 (tag 14) signature covers. */
export function delegateActionV2Hash(payload: VersionedDelegateActionPayload): Uint8Array {
  return sha256(delegateActionV2Message(payload));
}
