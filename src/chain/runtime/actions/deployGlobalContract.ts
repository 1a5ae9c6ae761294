import type { DeployGlobalContractAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { startDistribution } from "../globalContractDistribution.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/**
 * nearcore global_contracts.rs `action_deploy_global_contract`: the code's storage is paid
 * once, burnt from the deployer's balance (global_contract_storage_amount_per_byte per byte,
 * counted in the outcome's tokens_burnt since protocol 83), and a distribution receipt
 * starts carrying the code to every shard. The deployer's own storage usage is unchanged.
 */
export function deployGlobalContract(env: ActionEnv, action: DeployGlobalContractAction, result: ActionResult): void {
  const account = receiverAccount(env);
  const cost = env.ctx.params.globalContractStorageAmountPerByte * BigInt(action.code.length);
  if (account.amount < cost) {
    result.fail({ LackBalanceForState: { account_id: env.accountId, amount: cost.toString() } });
    return;
  }
  env.account = { ...account, amount: account.amount - cost };
  result.tokensBurnt += cost;
  result.newReceipts.push(startDistribution(env.ctx, env.su, env.accountId, action.code, action.deployMode));
}
