/**
 * The nearcore JSON shapes the light-client verifiers read (kept here so `shardkit/proof`
 * depends on nothing else). Only the fields the checks use are required.
 */

export interface MerklePathItemView {
  readonly hash: string;
  readonly direction: "Left" | "Right";
}

export type ExecutionStatusView =
  | "Unknown"
  | { readonly Failure: unknown }
  | { readonly SuccessValue: string }
  | { readonly SuccessReceiptId: string };

export interface ExecutionOutcomeView {
  readonly logs: readonly string[];
  readonly receipt_ids: readonly string[];
  readonly gas_burnt: number;
  readonly tokens_burnt: string;
  readonly executor_id: string;
  readonly status: ExecutionStatusView;
}

export interface ExecutionOutcomeWithIdView {
  readonly proof: readonly MerklePathItemView[];
  readonly block_hash: string;
  readonly id: string;
  readonly outcome: ExecutionOutcomeView;
}

export interface BlockHeaderInnerLiteView {
  readonly height: number;
  readonly epoch_id: string;
  readonly next_epoch_id: string;
  readonly prev_state_root: string;
  readonly outcome_root: string;
  /** Legacy JSON number (inexact above 2^53); `timestamp_nanosec` wins when present. */
  readonly timestamp: number;
  readonly timestamp_nanosec?: string;
  readonly next_bp_hash: string;
  readonly block_merkle_root: string;
}

export interface LightClientBlockLiteView {
  readonly prev_block_hash: string;
  readonly inner_rest_hash: string;
  readonly inner_lite: BlockHeaderInnerLiteView;
}

export interface ValidatorStakeView {
  readonly account_id: string;
  readonly public_key: string;
  readonly stake: string;
  readonly validator_stake_struct_version?: string;
}

export interface LightClientBlockView {
  readonly prev_block_hash: string;
  readonly next_block_inner_hash: string;
  readonly inner_lite: BlockHeaderInnerLiteView;
  readonly inner_rest_hash: string;
  readonly next_bps?: readonly ValidatorStakeView[] | null;
  readonly approvals_after_next: readonly (string | null)[];
}

/** `light_client_proof` / `EXPERIMENTAL_light_client_proof` result. */
export interface LightClientExecutionProofView {
  readonly outcome_proof: ExecutionOutcomeWithIdView;
  readonly outcome_root_proof: readonly MerklePathItemView[];
  readonly block_header_lite: LightClientBlockLiteView;
  readonly block_proof: readonly MerklePathItemView[];
}
