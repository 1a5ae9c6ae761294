import type { ClientConfigParams, ClientConfigResult, DurationSecsNanos } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { nodeVersion } from "./nodeVersion.js";
import { STATE_VIEW_SIZE_LIMIT } from "../../chain/state/StateView.js";

const seconds = (s: number): DurationSecsNanos => [s, 0];
const millis = (ms: number): DurationSecsNanos => [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];
/** nearcore keeps 5 epochs of blocks on a non-archival node. */
const GC_NUM_EPOCHS_TO_KEEP = 5;

/**
 * `client_config`: the node's configuration as nearcore's `ClientConfig`. What shardkit has
 * comes from the chain and the listener; the rest are nearcore's defaults (see the spec).
 */
export function clientConfig(_params: ClientConfigParams, ctx: RpcContext): ClientConfigResult {
  const { chain } = ctx;
  const blockTime = millis(chain.blockTimeMs);
  return {
    archive: ctx.archival,
    block_fetch_horizon: 50,
    block_header_fetch_horizon: 50,
    block_production_tracking_delay: millis(100),
    catchup_step_period: millis(100),
    chain_id: chain.chainId,
    chunk_request_retry_period: millis(400),
    chunk_validation_threads: 4,
    chunk_wait_mult: [1, 6],
    client_background_migration_threads: 8,
    doomslug_step_period: millis(100),
    enable_multiline_logging: false,
    enable_statistics_export: true,
    epoch_length: chain.config.epochLength,
    epoch_sync: { epoch_sync_horizon: 216_000, timeout_for_epoch_sync: { secs: 60, nanos: 0 } },
    expected_shutdown: "None",
    gc: {
      gc_blocks_limit: 2,
      gc_fork_clean_step: 100,
      gc_num_epochs_to_keep: ctx.archival ? 0 : GC_NUM_EPOCHS_TO_KEEP,
      gc_step_period: { secs: 0, nanos: 500_000_000 },
    },
    header_sync_expected_height_per_second: 10,
    header_sync_initial_timeout: seconds(10),
    header_sync_progress_timeout: seconds(2),
    header_sync_stall_ban_timeout: seconds(120),
    log_summary_period: seconds(10),
    log_summary_style: "colored",
    max_block_production_delay: blockTime,
    max_block_wait_delay: seconds(6),
    max_gas_burnt_view: null,
    min_block_production_delay: blockTime,
    min_num_peers: 3,
    num_block_producer_seats: 1,
    orphan_state_witness_max_size: 40_000_000,
    orphan_state_witness_pool_size: 25,
    produce_chunk_add_transactions_time_limit: "None",
    produce_empty_blocks: true,
    protocol_version_check: "NextNext",
    resharding_config: "None",
    rpc_addr: ctx.rpcAddr,
    save_invalid_witnesses: false,
    save_latest_witnesses: false,
    save_trie_changes: true,
    save_tx_outcomes: true,
    skip_sync_wait: true,
    state_request_server_threads: 1,
    state_request_throttle_period: seconds(30),
    state_requests_per_throttle_period: 30,
    state_sync: {},
    state_sync_enabled: false,
    state_sync_external_backoff: seconds(60),
    state_sync_external_timeout: seconds(60),
    state_sync_p2p_timeout: seconds(10),
    state_sync_retry_backoff: seconds(1),
    sync_check_period: seconds(10),
    sync_height_threshold: 1,
    sync_max_block_requests: 10,
    sync_step_period: millis(10),
    tracked_shards_config: "AllShards",
    transaction_pool_size_limit: null,
    transaction_request_handler_threads: 4,
    trie_viewer_state_size_limit: STATE_VIEW_SIZE_LIMIT,
    ttl_account_id_router: seconds(3600),
    tx_routing_height_horizon: 4,
    version: nodeVersion(),
    view_client_threads: 4,
  };
}
