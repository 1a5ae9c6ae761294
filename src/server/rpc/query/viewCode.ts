import type { ViewCodeRequest, ViewCodeResult } from "../../../../generated/rpc/types.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../../../chain/primitives/base64.js";
import { sha256 } from "../../../chain/primitives/sha256.js";
import type { Block, RpcContext } from "../context.js";
import { blockPoint } from "./blockPoint.js";
import { existingAccount } from "./existingAccount.js";
import { NoContractCodeError } from "./noContractCodeError.js";

/**
 * `query` / `view_code`, in nearcore's order: the account first (UNKNOWN_ACCOUNT), then its
 * code (NO_CONTRACT_CODE). `hash` is the sha256 of the code: the account's code hash, or for
 * an account using a global contract the contract's (nearcore resolves the global code).
 */
export function viewCode(ctx: RpcContext, block: Block, params: ViewCodeRequest): ViewCodeResult {
  const account = existingAccount(ctx, block, params.account_id);
  const code = ctx.chain.at(block).code(params.account_id);
  if (code === undefined) throw new NoContractCodeError(params.account_id, blockPoint(block));
  const hash = account.globalContractHash ?? (account.globalContractAccountId === undefined ? account.codeHash : base58Encode(sha256(code)));
  return { code_base64: base64Encode(code), hash, ...blockPoint(block) };
}
