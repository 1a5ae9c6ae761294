import type { ShardLayout } from "../shards/ShardLayout.js";
import type { FunctionCallExecutor } from "./functionCallExecutor.js";
import type { RuntimeParameters } from "./parameters.js";

/** What executing a chunk needs to know about the block it belongs to. */
export interface ApplyContext {
  readonly params: RuntimeParameters;
  /** The genesis chain id (contracts read it with chain_id). */
  readonly chainId: string;
  /** Height of the block whose chunk is being applied. */
  readonly blockHeight: number;
  /** That block's timestamp, ns (contracts read it with block_timestamp). */
  readonly blockTimestampNs: bigint;
  /** nearcore epoch height of that block (the first epoch is 1). */
  readonly epochHeight: number;
  /** The block's random_value; a function call reads sha256(action hash ‖ it) with random_seed. */
  readonly randomSeed: Uint8Array;
  /** Stakes of the current validators (validator_stake / validator_total_stake). */
  readonly validatorStakes: ReadonlyMap<string, bigint>;
  /** Gas price of that block (the price gas is bought at and burnt at). */
  readonly gasPrice: bigint;
  readonly protocolVersion: number;
  /** The smallest stake a Stake action may ask for (nearcore asks the epoch manager). */
  readonly minimumStake: bigint;
  /** The chain's shards: where a global contract's distribution starts and goes next. */
  readonly shardLayout: ShardLayout;
  /** Runs FunctionCall actions; see functionCallExecutor.ts. */
  readonly functionCalls: FunctionCallExecutor;
}
