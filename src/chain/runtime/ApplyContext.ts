import type { FunctionCallExecutor } from "./functionCallExecutor.js";
import type { RuntimeParameters } from "./parameters.js";

/** What executing a chunk needs to know about the block it belongs to. */
export interface ApplyContext {
  readonly params: RuntimeParameters;
  /** Height of the block whose chunk is being applied. */
  readonly blockHeight: number;
  /** Gas price of that block (the price gas is bought at and burnt at). */
  readonly gasPrice: bigint;
  readonly protocolVersion: number;
  /** The smallest stake a Stake action may ask for (nearcore asks the epoch manager). */
  readonly minimumStake: bigint;
  /** Runs FunctionCall actions; see functionCallExecutor.ts. */
  readonly functionCalls: FunctionCallExecutor;
}
