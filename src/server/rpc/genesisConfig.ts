import type { ChainReader } from "../../chain/ChainReader.js";
import type { GenesisConfigParams, GenesisConfigResult } from "../../../generated/rpc/types.js";
import { chronoRfc3339 } from "./chronoRfc3339.js";
import type { RpcContext } from "./context.js";
import { shardLayoutView } from "./shardLayoutView.js";

/** nearcore's genesis default `max_gas_price` (shardkit's price never leaves the minimum). */
const MAX_GAS_PRICE = "10000000000000000000000";
/** nearcore's genesis default fishermen threshold: 10 NEAR. */
const FISHERMEN_THRESHOLD = "10000000000000000000000000";

/** `genesis_config` (and `EXPERIMENTAL_genesis_config`): the chain's genesis settings. */
export function genesisConfig(_params: GenesisConfigParams, ctx: RpcContext): GenesisConfigResult {
  return genesisConfigView(ctx.chain);
}

export function genesisConfigView(chain: ChainReader): GenesisConfigResult {
  const { config } = chain;
  const producer = chain.blockProducer;
  const shards = chain.shardLayout.shardIds;
  return {
    protocol_version: chain.protocolVersion,
    genesis_time: chronoRfc3339(config.genesisTimeNs),
    chain_id: chain.chainId,
    genesis_height: config.genesisHeight,
    num_block_producer_seats: 1,
    num_block_producer_seats_per_shard: shards.map(() => 1),
    avg_hidden_validator_seats_per_shard: shards.map(() => 0),
    dynamic_resharding: false,
    // nearcore's genesis defaults for what the simulator does not model (not enforced).
    protocol_upgrade_stake_threshold: [4, 5],
    epoch_length: config.epochLength,
    gas_limit: config.gasLimit,
    min_gas_price: config.gasPrice.toString(),
    max_gas_price: MAX_GAS_PRICE,
    block_producer_kickout_threshold: 90,
    chunk_producer_kickout_threshold: 90,
    chunk_validator_only_kickout_threshold: 80,
    online_min_threshold: [90, 100],
    online_max_threshold: [99, 100],
    gas_price_adjustment_rate: [0, 1],
    validators: [
      {
        account_id: producer.accountId,
        public_key: producer.publicKey,
        amount: (chain.at(chain.genesisBlock).account(producer.accountId)?.locked ?? 0n).toString(),
      },
    ],
    transaction_validity_period: chain.transactionValidityPeriod,
    protocol_reward_rate: [0, 1],
    max_inflation_rate: [0, 1],
    total_supply: chain.totalSupply.toString(),
    num_blocks_per_year: 31_536_000,
    protocol_treasury_account: producer.accountId,
    fishermen_threshold: FISHERMEN_THRESHOLD,
    minimum_stake_divisor: 10,
    shard_layout: shardLayoutView(chain),
    max_kickout_stake_perc: 100,
    minimum_stake_ratio: [1, 6250],
    use_production_config: false,
  };
}
