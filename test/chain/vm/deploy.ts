import type { Chain } from "../../../src/chain/node.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { outcomeOf, settle, submit } from "../runtime/helpers.js";

export const TGAS = 10n ** 12n;

/** Deploys `code` to `accountId` (signed by the account's dev key) and waits for it. */
export function deploy(chain: Chain, accountId: string, code: Uint8Array): void {
  const s = settle(chain, submit(chain, accountId, accountId, [{ type: "DeployContract", code }]));
  const status = outcomeOf(s).status;
  if (!("SuccessValue" in (status as object))) throw new Error(`deploy failed: ${JSON.stringify(status)}`);
}

export function call(methodName: string, args: Uint8Array | string = "", gas = 100n * TGAS, deposit = 0n): Action {
  return {
    type: "FunctionCall",
    methodName,
    args: typeof args === "string" ? new TextEncoder().encode(args) : args,
    gas,
    deposit,
  };
}
