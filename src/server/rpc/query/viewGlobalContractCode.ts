import type {
  ViewCodeResult,
  ViewGlobalContractCodeByAccountIdRequest,
  ViewGlobalContractCodeRequest,
} from "../../../../generated/rpc/types.js";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../../../chain/primitives/base64.js";
import { sha256 } from "../../../chain/primitives/sha256.js";
import { RpcError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { blockPoint } from "./blockPoint.js";

/**
 * `query` / `view_global_contract_code` and `view_global_contract_code_by_account_id`
 * (nearcore state_viewer `view_global_contract_code`): the code in the `view_code` shape, its
 * hash being the sha256 of the code; NO_GLOBAL_CONTRACT_CODE when the shard read does not hold
 * it, with nearcore's Debug text of the identifier.
 */
export function viewGlobalContractCode(
  ctx: RpcContext,
  block: Block,
  params: ViewGlobalContractCodeRequest | ViewGlobalContractCodeByAccountIdRequest,
): ViewCodeResult {
  const id =
    params.request_type === "view_global_contract_code"
      ? { kind: "CodeHash" as const, codeHash: base58Decode(params.code_hash) }
      : { kind: "AccountId" as const, accountId: params.account_id };
  const code = ctx.chain.at(block).globalContractCode(id);
  if (code === undefined) {
    const at = blockPoint(block);
    const [identifier, debug] =
      id.kind === "CodeHash"
        ? [{ CodeHash: base58Encode(id.codeHash) }, `CodeHash(${base58Encode(id.codeHash)})`]
        : [{ AccountId: id.accountId }, `AccountId(${JSON.stringify(id.accountId)})`];
    throw new RpcError(
      "NO_GLOBAL_CONTRACT_CODE",
      { identifier, ...at },
      `Global contract code with identifier ${debug} has never been observed on the node`,
    );
  }
  return { code_base64: base64Encode(code), hash: base58Encode(sha256(code)), ...blockPoint(block) };
}
