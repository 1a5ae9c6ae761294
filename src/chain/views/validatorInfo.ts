import type { ChainReader } from "../ChainReader.js";
import type { Block } from "../blocks/Block.js";
import { epochIndexOfHeight, type EpochRef } from "./epochs.js";

/** A validator stake as nearcore views it (`ValidatorStakeView` V1). */
export interface ValidatorStake {
  validator_stake_struct_version: "V1";
  account_id: string;
  public_key: string;
  stake: string;
}

/** nearcore's `EpochValidatorInfo`, the result of `validators`. */
export interface EpochValidatorInfo {
  current_validators: {
    account_id: string;
    public_key: string;
    is_slashed: boolean;
    stake: string;
    shards: number[];
    num_produced_blocks: number;
    num_expected_blocks: number;
    num_produced_chunks: number;
    num_expected_chunks: number;
    num_produced_chunks_per_shard: number[];
    num_expected_chunks_per_shard: number[];
    num_produced_endorsements: number;
    num_expected_endorsements: number;
    num_produced_endorsements_per_shard: number[];
    num_expected_endorsements_per_shard: number[];
    shards_endorsed: number[];
  }[];
  next_validators: { account_id: string; public_key: string; stake: string; shards: number[] }[];
  current_fishermen: ValidatorStake[];
  next_fishermen: ValidatorStake[];
  current_proposals: ValidatorStake[];
  prev_epoch_kickout: never[];
  epoch_start_height: number;
  epoch_height: number;
}

/**
 * The block producer's stake in an epoch: its locked balance when the epoch began (after
 * the previous epoch's last block; the genesis state for the first epoch).
 */
function producerStake(chain: ChainReader, epoch: EpochRef): bigint {
  const before = chain.blockByHeight(Math.max(chain.genesisBlock.height, epoch.startHeight - 1))!;
  return chain.at(before).account(chain.blockProducer.accountId)?.locked ?? 0n;
}

/** The epoch's block producers in order: the chain's single producer. */
export function epochBlockProducers(chain: ChainReader, epoch: EpochRef): ValidatorStake[] {
  const { accountId, publicKey } = chain.blockProducer;
  return [{ validator_stake_struct_version: "V1", account_id: accountId, public_key: publicKey, stake: producerStake(chain, epoch).toString() }];
}

/**
 * What nearcore's epoch manager reports for an epoch, counted over its blocks up to
 * `upTo` (the head for the epoch under way, the epoch's last block for a finished one).
 * Every produced block carries a chunk for every shard, all by the single producer, so
 * expected and produced counts are equal. Proposals are the Stake actions recorded in
 * the epoch's chunk headers, the latest per account, sorted by account id as nearcore's
 * BTreeMap orders them.
 */
export function epochValidatorInfo(chain: ChainReader, epoch: EpochRef, upTo: Block): EpochValidatorInfo {
  const first = Math.max(epoch.startHeight, chain.genesisBlock.height + 1);
  const last = Math.min(upTo.height, epoch.lastHeight);
  const blocks = Math.max(0, last - first + 1);
  const shards = [...chain.shardLayout.shardIds];
  const perShard = shards.map(() => blocks);
  const chunks = blocks * shards.length;
  const proposals = new Map<string, ValidatorStake>();
  for (let h = first; h <= last; h++) {
    for (const p of chain.blockByHeight(h)!.view.header.validator_proposals) proposals.set(p.account_id, {
        validator_stake_struct_version: "V1",
        account_id: p.account_id,
        public_key: p.public_key,
        stake: p.stake,
      });
  }
  const [producer] = epochBlockProducers(chain, epoch);
  const { account_id, public_key, stake } = producer!;
  return {
    current_validators: [
      {
        account_id,
        public_key,
        is_slashed: false,
        stake,
        shards,
        num_produced_blocks: blocks,
        num_expected_blocks: blocks,
        num_produced_chunks: chunks,
        num_expected_chunks: chunks,
        num_produced_chunks_per_shard: perShard,
        num_expected_chunks_per_shard: [...perShard],
        num_produced_endorsements: chunks,
        num_expected_endorsements: chunks,
        num_produced_endorsements_per_shard: [...perShard],
        num_expected_endorsements_per_shard: [...perShard],
        shards_endorsed: [...shards],
      },
    ],
    next_validators: [{ account_id, public_key, stake, shards: [...shards] }],
    current_fishermen: [],
    next_fishermen: [],
    current_proposals: [...proposals.values()].sort((a, b) => (a.account_id < b.account_id ? -1 : a.account_id > b.account_id ? 1 : 0)),
    prev_epoch_kickout: [],
    epoch_start_height: epoch.startHeight,
    epoch_height: epoch.index + 1,
  };
}

/** Whether `block` is the last block of its epoch: its successor exists and starts a new epoch. */
export function endsEpoch(chain: ChainReader, block: Block): boolean | undefined {
  const next = chain.blockByHeight(block.height + 1);
  if (next === undefined) return undefined;
  return epochIndexOfHeight(chain, next.height) !== epochIndexOfHeight(chain, block.height);
}
