import type { Block } from "../chain/blocks/Block.js";
import type { CallFunctionOutcome } from "../chain/vm/CallFunctionOutcome.js";
import type { FtBalance } from "./IndexStore.js";

/** Reads a token contract's own balance of an account at a block (`ft_balance_of`). */
export type FtBalanceReader = (block: Block, contractId: string, accountId: string) => FtBalance;

/** A view call at a block, as the chain's contract host answers it. */
export type ViewCall = (block: Block, contractId: string, methodName: string, args: Uint8Array) => CallFunctionOutcome;

const DECIMAL_U128 = /^(0|[1-9][0-9]{0,38})$/;

/**
 * The balance in a view call's answer: NEP-141 returns a JSON string of a decimal u128. Like
 * FastNEAR, anything else (a failed call, other JSON) is recorded as `""`.
 */
export function ftBalanceFromOutcome(outcome: CallFunctionOutcome): FtBalance {
  if (!outcome.ok) return "";
  try {
    const value: unknown = JSON.parse(Buffer.from(outcome.result).toString("utf8"));
    return typeof value === "string" && DECIMAL_U128.test(value) && BigInt(value) < 2n ** 128n ? value : "";
  } catch {
    return "";
  }
}

/** An FtBalanceReader over the chain's view calls (`chain.callFunction` once the VM is in). */
export function ftBalanceReaderFrom(view: ViewCall): FtBalanceReader {
  return (block, contractId, accountId) => {
    try {
      return ftBalanceFromOutcome(view(block, contractId, "ft_balance_of", Buffer.from(JSON.stringify({ account_id: accountId }))));
    } catch {
      // No contract (or a host failure): the contract did not answer a balance.
      return "";
    }
  };
}
