import type {
  ExperimentalProtocolConfigParams,
  ExperimentalProtocolConfigResult,
  Fee,
  RuntimeConfigView,
} from "../../../generated/rpc/types.js";
import type { Chain } from "../../chain/node.js";
import type { Fee as RuntimeFee, RuntimeParameters } from "../../chain/runtime/parameters.js";
import { resolveBlockHeader } from "./blockReference.js";
import { chronoRfc3339 } from "./chronoRfc3339.js";
import { shardLayoutView } from "./shardLayoutView.js";
import type { RpcContext } from "./context.js";

/** nearcore's genesis default `max_gas_price`; shardkit's price never leaves the minimum. */
const MAX_GAS_PRICE = "10000000000000000000000";

/**
 * `EXPERIMENTAL_protocol_config`: the protocol configuration at a block. shardkit's configuration
 * is the same at every block, so the block only has to exist.
 */
export function experimentalProtocolConfig(
  params: ExperimentalProtocolConfigParams,
  ctx: RpcContext,
): ExperimentalProtocolConfigResult {
  resolveBlockHeader(ctx, params);
  return protocolConfigView(ctx.chain);
}

function protocolConfigView(chain: Chain): ExperimentalProtocolConfigResult {
  const { config } = chain;
  return {
    protocol_version: chain.protocolVersion,
    genesis_time: chronoRfc3339(config.genesisTimeNs),
    genesis_height: config.genesisHeight,
    chain_id: chain.chainId,
    epoch_length: config.epochLength,
    gas_limit: config.gasLimit,
    min_gas_price: config.gasPrice.toString(),
    max_gas_price: MAX_GAS_PRICE,
    transaction_validity_period: chain.transactionValidityPeriod,
    // One block producer, no rewards and no minting: constants of the simulator.
    num_block_producer_seats: 1,
    protocol_reward_rate: [0, 1],
    max_inflation_rate: [0, 1],
    shard_layout: shardLayoutView(chain),
    runtime_config: runtimeConfigView(chain.runtimeParameters),
  };
}

function runtimeConfigView(p: RuntimeParameters): RuntimeConfigView {
  const f = p.fees;
  return {
    storage_amount_per_byte: p.storageAmountPerByte.toString(),
    transaction_costs: {
      action_receipt_creation_config: fee(f.actionReceiptCreation),
      data_receipt_creation_config: { base_cost: fee(f.dataReceiptCreationBase), cost_per_byte: fee(f.dataReceiptCreationPerByte) },
      action_creation_config: {
        create_account_cost: fee(f.createAccount),
        deploy_contract_cost: fee(f.deployContractBase),
        deploy_contract_cost_per_byte: fee(f.deployContractPerByte),
        function_call_cost: fee(f.functionCallBase),
        function_call_cost_per_byte: fee(f.functionCallPerByte),
        transfer_cost: fee(f.transfer),
        stake_cost: fee(f.stake),
        add_key_cost: {
          full_access_cost: fee(f.addFullAccessKey),
          function_call_cost: fee(f.addFunctionCallKeyBase),
          function_call_cost_per_byte: fee(f.addFunctionCallKeyPerByte),
        },
        delete_key_cost: fee(f.deleteKey),
        delete_account_cost: fee(f.deleteAccount),
        delegate_cost: fee(f.delegate),
      },
      storage_usage_config: { num_bytes_account: p.storageNumBytesAccount, num_extra_bytes_record: p.storageNumExtraBytesRecord },
      burnt_gas_reward: [Number(p.burntGasReward.numerator), Number(p.burntGasReward.denominator)],
      // Gas is bought at the current price since protocol 78 (NEP-536).
      pessimistic_gas_price_inflation_ratio: [1, 1],
    },
    account_creation_config: {
      min_allowed_top_level_account_length: p.minAllowedTopLevelAccountLength,
      registrar_account_id: p.registrarAccountId,
    },
  };
}

function fee(f: RuntimeFee): Fee {
  return { send_sir: Number(f.sendSir), send_not_sir: Number(f.sendNotSir), execution: Number(f.execution) };
}

