import type { Block } from "../chain/blocks/Block.js";
import type { ChainReader } from "../chain/ChainReader.js";
import { UnknownAccountError } from "../chain/vm/UnknownAccountError.js";
import type { CallFunctionOutcome } from "../chain/vm/CallFunctionOutcome.js";
import type { ViewLimits } from "../chain/vm/ViewLimits.js";
import type { FtBalance } from "./IndexStore.js";

/** Reads a token contract's own balance of an account at a block (`ft_balance_of`). */
export type FtBalanceReader = (block: Block, contractId: string, accountId: string) => FtBalance;

/** A view call at a block, as the chain's contract host answers it. */
export type ViewCall = (
  block: Block,
  contractId: string,
  methodName: string,
  args: Uint8Array,
  limits?: ViewLimits,
) => CallFunctionOutcome;

/** The chain's own view calls (the contract VM) as a ViewCall. */
export function viewCallOf(chain: Pick<ChainReader, "at">): ViewCall {
  return (block, contractId, methodName, args, limits) => chain.at(block).callFunction(contractId, methodName, args, limits);
}

/**
 * Budget of one indexer balance read. The indexer runs on the thread that serves RPC and
 * produces blocks, so a token contract may not spend nearcore's whole view budget (300 Tgas,
 * our VM's 3 s clock) per read: a NEP-141 `ft_balance_of` is a storage read and a few Tgas.
 */
export const FT_BALANCE_READ_LIMITS: Required<ViewLimits> = { gas: 20_000_000_000_000n, timeLimitMs: 20 };

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

/**
 * An FtBalanceReader over view calls (`viewCallOf(chain)`), each within `limits`.
 * A contract that fails (no code, a panic, out of gas or time) answers `""` through its
 * outcome; a token account that does not exist is also `""`. Anything else thrown is a host
 * bug and propagates.
 */
export function ftBalanceReaderFrom(view: ViewCall, limits: ViewLimits = FT_BALANCE_READ_LIMITS): FtBalanceReader {
  return (block, contractId, accountId) => {
    try {
      return ftBalanceFromOutcome(
        view(block, contractId, "ft_balance_of", Buffer.from(JSON.stringify({ account_id: accountId })), limits),
      );
    } catch (error) {
      if (error instanceof UnknownAccountError) return "";
      throw error;
    }
  };
}
