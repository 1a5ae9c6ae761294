/**
 * The nearcore JSON shapes of a block (`block` RPC result): u64 as numbers, u128 as decimal
 * strings, hashes/keys/signatures base58 (see reference near-rpc-wire.md §3.3).
 */

export interface ValidatorStakeView {
  readonly account_id: string;
  readonly public_key: string;
  readonly stake: string;
  readonly validator_stake_struct_version: "V1";
}

export interface SlashedValidatorView {
  readonly account_id: string;
  readonly is_double_sign: boolean;
}

export interface CongestionInfoView {
  readonly allowed_shard: number;
  readonly buffered_receipts_gas: string;
  readonly delayed_receipts_gas: string;
  readonly receipt_bytes: number;
}

export interface ChunkHeaderView {
  readonly chunk_hash: string;
  readonly prev_block_hash: string;
  readonly outcome_root: string;
  /** The shard's state root before this chunk is applied (post-state of the previous block). */
  readonly prev_state_root: string;
  readonly encoded_merkle_root: string;
  readonly encoded_length: number;
  readonly height_created: number;
  readonly height_included: number;
  readonly shard_id: number;
  readonly gas_used: number;
  readonly gas_limit: number;
  readonly rent_paid: string;
  readonly validator_reward: string;
  readonly balance_burnt: string;
  readonly outgoing_receipts_root: string;
  readonly tx_root: string;
  readonly validator_proposals: ValidatorStakeView[];
  readonly signature: string;
  readonly congestion_info: CongestionInfoView;
  readonly bandwidth_requests: null;
}

export interface BlockHeaderView {
  readonly height: number;
  readonly prev_height: number;
  readonly epoch_id: string;
  readonly next_epoch_id: string;
  readonly hash: string;
  readonly prev_hash: string;
  readonly prev_state_root: string;
  readonly block_body_hash: string;
  readonly chunk_receipts_root: string;
  readonly chunk_headers_root: string;
  readonly chunk_tx_root: string;
  readonly outcome_root: string;
  readonly chunks_included: number;
  readonly challenges_root: string;
  /** Unix ns as a JSON number (above 2^53; see Block.timestampNs for the exact value). */
  readonly timestamp: number;
  /** The same instant as an exact decimal string. */
  readonly timestamp_nanosec: string;
  readonly random_value: string;
  readonly validator_proposals: ValidatorStakeView[];
  readonly chunk_mask: boolean[];
  readonly gas_price: string;
  readonly block_ordinal: number;
  readonly rent_paid: string;
  readonly validator_reward: string;
  readonly total_supply: string;
  readonly challenges_result: SlashedValidatorView[];
  readonly last_final_block: string;
  readonly last_ds_final_block: string;
  readonly next_bp_hash: string;
  readonly block_merkle_root: string;
  readonly epoch_sync_data_hash: null;
  readonly approvals: (string | null)[];
  readonly signature: string;
  readonly latest_protocol_version: number;
  readonly chunk_endorsements: number[][];
}

export interface BlockView {
  readonly author: string;
  readonly header: BlockHeaderView;
  readonly chunks: ChunkHeaderView[];
}
