import type { ViewAccountRequest, ViewAccountResult } from "../../../../generated/rpc/types.js";
import type { Block, RpcContext } from "../context.js";
import { blockPoint } from "./blockPoint.js";
import { existingAccount } from "./existingAccount.js";

/** `query` / `view_account`. */
export function viewAccount(ctx: RpcContext, block: Block, params: ViewAccountRequest): ViewAccountResult {
  const account = existingAccount(ctx, block, params.account_id);
  return {
    amount: account.amount.toString(),
    locked: account.locked.toString(),
    code_hash: account.codeHash,
    storage_usage: account.storageUsage,
    storage_paid_at: 0,
    ...(account.globalContractHash !== undefined && { global_contract_hash: account.globalContractHash }),
    ...(account.globalContractAccountId !== undefined && { global_contract_account_id: account.globalContractAccountId }),
    ...blockPoint(block),
  };
}
