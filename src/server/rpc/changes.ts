import type { ChangesParams, ChangesResult, StateChangeWithCauseView } from "../../../generated/rpc/types.js";
import { parsePublicKey } from "../../chain/primitives/publicKey.js";
import type { KeyStateChanges } from "../../chain/runtime/StateChangeCause.js";
import { accessKeysPrefix, accessKeyTrieKey, accountTrieKey, contractCodeTrieKey, contractDataTrieKey } from "../../chain/store/trieKeys.js";
import type { BlockStateChanges } from "../../chain/views/BlockStateChanges.js";
import { resolveChangesBlock } from "./changesBlock.js";
import type { RpcContext } from "./context.js";
import { base64Param } from "./query/base64Param.js";
import { canonicalPublicKey } from "./query/viewAccessKey.js";
import { stateChangeViews } from "./stateChangeView.js";

/**
 * The keys a request names, read as nearcore's `ChainStore::get_state_changes` reads them:
 * per requested account (or key) in request order, an exact key or every key under the
 * account's prefix (key byte order), each key with all its changes in order.
 */
function selectChanges(changes: BlockStateChanges, params: ChangesParams): (KeyStateChanges | undefined)[] {
  switch (params.changes_type) {
    case "account_changes":
      return params.account_ids.map((id) => changes.forKey(accountTrieKey(id)));
    case "single_access_key_changes":
      return params.keys.map((k) => changes.forKey(accessKeyTrieKey(k.account_id, parsePublicKey(canonicalPublicKey(k.public_key)))));
    case "all_access_key_changes":
      return params.account_ids.flatMap((id) => changes.withPrefix(accessKeysPrefix(id)));
    case "contract_code_changes":
      return params.account_ids.map((id) => changes.forKey(contractCodeTrieKey(id)));
    case "data_changes": {
      const prefix = base64Param("key_prefix_base64", params.key_prefix_base64);
      return params.account_ids.flatMap((id) => changes.withPrefix(contractDataTrieKey(id, prefix)));
    }
    case "single_gas_key_changes":
      // Checked as nearcore parses them; the chain has no gas keys, so none changed.
      for (const k of params.keys) canonicalPublicKey(k.public_key);
      return [];
    case "all_gas_key_changes":
      return [];
  }
}

/** `changes` / `EXPERIMENTAL_changes`: every change a block made to the requested state, with its cause. */
export function changes(params: ChangesParams, ctx: RpcContext): ChangesResult {
  const block = resolveChangesBlock(ctx, params);
  const out: StateChangeWithCauseView[] = [];
  for (const entry of selectChanges(ctx.chain.stateChangesInBlock(block), params)) {
    if (entry !== undefined) out.push(...stateChangeViews(entry));
  }
  return { block_hash: block.hash, changes: out };
}
