import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { StakeAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/**
 * nearcore actions.rs `action_stake`: raising the stake locks the difference at once; a
 * lower stake (unstaking) is only a proposal, and the chain returns the difference at the
 * next epoch boundary (see Chain). Staking nothing without a stake is TriesToUnstake; asking
 * more than the balance allows is TriesToStake; less than the minimum is InsufficientStake.
 */
export function stake(env: ActionEnv, action: StakeAction, result: ActionResult): void {
  const account = receiverAccount(env);
  const id = env.accountId;
  const increment = action.stake > account.locked ? action.stake - account.locked : 0n;
  if (account.amount < increment) {
    result.fail({
      TriesToStake: {
        account_id: id,
        stake: action.stake.toString(),
        locked: account.locked.toString(),
        balance: account.amount.toString(),
      },
    });
    return;
  }
  if (account.locked === 0n && action.stake === 0n) {
    result.fail({ TriesToUnstake: { account_id: id } });
    return;
  }
  if (action.stake > 0n && action.stake < env.ctx.minimumStake) {
    result.fail({
      InsufficientStake: { account_id: id, stake: action.stake.toString(), minimum_stake: env.ctx.minimumStake.toString() },
    });
    return;
  }
  result.proposals.push({ accountId: id, publicKey: formatPublicKey(action.publicKey), stake: action.stake });
  if (action.stake > account.locked) {
    env.account = { ...account, amount: account.amount - increment, locked: action.stake };
  }
}
