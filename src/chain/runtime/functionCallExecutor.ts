import type { Account } from "../primitives/account.js";
import type { ApplyContext } from "./ApplyContext.js";
import type { FunctionCallAction } from "../transaction/index.js";
import type { FunctionCallErrorJson } from "./actionError.js";
import type { GasProfileEntry } from "./executionOutcome.js";
import type { NewReceipt, ReturnData } from "./ActionResult.js";
import type { ActionReceiptOf } from "./receipt.js";
import type { StateUpdate } from "./StateUpdate.js";

/** Everything a contract call can see and touch. */
export interface FunctionCallInput {
  /** The block being applied: parameters, height, timestamp, epoch, random seed, validators. */
  readonly ctx: ApplyContext;
  readonly su: StateUpdate;
  readonly receipt: ActionReceiptOf;
  readonly accountId: string;
  readonly account: Account;
  readonly action: FunctionCallAction;
  readonly actionIndex: number;
  /** Results of the receipt's input data dependencies, in order (null = the promise failed). */
  readonly promiseResults: readonly (Uint8Array | null)[];
  readonly blockHeight: number;
  readonly isLastAction: boolean;
}

export type FunctionCallOutcome =
  | {
      readonly ok: true;
      readonly returnData: ReturnData;
      /** The account's balance afterwards (the attached deposit included). */
      readonly balance: bigint;
      /** yoctoNEAR attached to new receipts without leaving the balance (one_yocto_on_promise): minted. */
      readonly subsidizedAmount?: bigint;
      /** The account's storage usage afterwards (contract data written or removed). */
      readonly storageUsage: number;
      readonly gasBurnt: bigint;
      readonly gasUsed: bigint;
      readonly logs: string[];
      readonly newReceipts: NewReceipt[];
      /** nearcore gas_profile entries of the VM (the receipt outcome's metadata). */
      readonly gasProfile?: readonly GasProfileEntry[];
    }
  | {
      readonly ok: false;
      readonly error: FunctionCallErrorJson;
      readonly gasBurnt: bigint;
      readonly gasUsed: bigint;
      readonly logs: string[];
      readonly gasProfile?: readonly GasProfileEntry[];
    };

/**
 * Runs one FunctionCall action: the seam where a contract VM plugs in. Gas here is what the
 * VM burnt/used beyond the action's execution fee, which the runtime charges itself. The
 * chain plugs in the wasm VM (`vm/wasmExecutor.ts`).
 */
export type FunctionCallExecutor = (input: FunctionCallInput) => FunctionCallOutcome;
