import type { ChangesParams, ChangesResult } from "../../../generated/rpc/types.js";
import { parsePublicKey } from "@shardkit/primitives/publicKey";
import type { BlockStateChanges, CausedStateChange } from "../../chain/views/BlockStateChanges.js";
import { resolveChangesBlock } from "./changesBlock.js";
import type { RpcContext } from "./context.js";
import { base64Param } from "./query/base64Param.js";
import { canonicalPublicKey } from "./query/viewAccessKey.js";
import { stateChangeView } from "./stateChangeView.js";

/**
 * The changes a request names, read as nearcore's `ChainStore::get_state_changes` reads them:
 * per requested account (or key) in request order, one entry or every entry of that kind of
 * the account (key byte order), each entry with all its changes in order.
 */
function selectChanges(changes: BlockStateChanges, params: ChangesParams): CausedStateChange[] {
  switch (params.changes_type) {
    case "account_changes":
      return params.account_ids.flatMap((id) => changes.account(id));
    case "single_access_key_changes":
      return params.keys.flatMap((k) => changes.accessKey(k.account_id, parsePublicKey(canonicalPublicKey(k.public_key))));
    case "all_access_key_changes":
      return params.account_ids.flatMap((id) => changes.accessKeys(id));
    case "contract_code_changes":
      return params.account_ids.flatMap((id) => changes.code(id));
    case "data_changes": {
      const prefix = base64Param("key_prefix_base64", params.key_prefix_base64);
      return params.account_ids.flatMap((id) => changes.data(id, prefix));
    }
    case "single_gas_key_changes":
      // Older nearcore's separate gas-key changes: checked as it parsed them, answered empty
      // (gas keys are listed with the access key changes, as current nearcore does).
      for (const k of params.keys) canonicalPublicKey(k.public_key);
      return [];
    case "all_gas_key_changes":
      return [];
  }
}

/** `changes` / `EXPERIMENTAL_changes`: every change a block made to the requested state, with its cause. */
export function changes(params: ChangesParams, ctx: RpcContext): ChangesResult {
  const block = resolveChangesBlock(ctx, params);
  return { block_hash: block.hash, changes: selectChanges(ctx.chain.stateChangesInBlock(block), params).map(stateChangeView) };
}
