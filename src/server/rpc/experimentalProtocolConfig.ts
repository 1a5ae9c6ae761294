import type { ChainReader } from "../../chain/ChainReader.js";
import type {
  ExperimentalProtocolConfigParams,
  ExperimentalProtocolConfigResult,
  ExtCostsConfigView,
  Fee,
  LimitConfig,
  RuntimeConfigView,
  VMConfigView,
} from "../../../generated/rpc/types.js";
import type { Fee as RuntimeFee, RuntimeParameters, WasmConfig } from "../../chain/runtime/parameters.js";
import { resolveBlockHeader } from "./blockReference.js";
import type { RpcContext } from "./context.js";
import { genesisConfigView } from "./genesisConfig.js";
import {
  CHUNK_VALIDATION_DEFAULTS,
  CONGESTION_CONTROL,
  UNCHARGED_EXT_COSTS,
  UNENFORCED_LIMITS,
  VM_FLAGS,
  WITNESS,
} from "./nearcoreRuntimeExtras.js";

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

/**
 * nearcore builds the view from the genesis config and the runtime config of the epoch's
 * protocol version; the genesis part is taken from `genesis_config`'s view so both methods
 * always agree, minus the fields only the genesis has.
 */
function protocolConfigView(chain: ChainReader): ExperimentalProtocolConfigResult {
  const { validators: _v, total_supply: _s, use_production_config: _u, ...genesis } = genesisConfigView(chain);
  return {
    ...genesis,
    ...CHUNK_VALIDATION_DEFAULTS,
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
      ml_dsa_65_verification_cost: Number(f.mlDsa65Verification),
    },
    wasm_config: vmConfigView(p.wasm, p),
    account_creation_config: {
      min_allowed_top_level_account_length: p.minAllowedTopLevelAccountLength,
      registrar_account_id: p.registrarAccountId,
    },
    congestion_control_config: CONGESTION_CONTROL,
    witness_config: WITNESS,
    min_gas_purchase_price: p.minGasPurchasePrice.toString(),
    account_creation_charge: p.accountCreationCharge.toString(),
  };
}

function vmConfigView(w: WasmConfig, p: RuntimeParameters): VMConfigView {
  // The costs of protocol 87's host functions are named from 87 on (nearcore 2.13 has no such ExtCosts).
  const named = (name: string) =>
    name.startsWith("sha3_") ? w.sha3HostFns : name.startsWith("ml_dsa_verify_") ? w.mlDsaVerifyHostFn : true;
  const charged = Object.fromEntries(Object.entries(w.extCosts).filter(([name]) => named(name)).map(([name, gas]) => [name, Number(gas)]));
  const ext_costs = { ...charged, ...UNCHARGED_EXT_COSTS } as ExtCostsConfigView;
  return {
    ext_costs,
    regular_op_cost: Number(w.regularOpCost),
    linear_op_base_cost: Number(w.linearOpBaseCost),
    linear_op_unit_cost: Number(w.linearOpUnitCost),
    ...VM_FLAGS,
    limit_config: limitConfig(w, p),
  };
}

function limitConfig(w: WasmConfig, p: RuntimeParameters): LimitConfig {
  return {
    max_gas_burnt: Number(w.maxGasBurnt),
    max_stack_height: Number(w.maxStackHeight),
    initial_memory_pages: w.initialMemoryPages,
    max_memory_pages: w.maxMemoryPages,
    registers_memory_limit: Number(w.registersMemoryLimit),
    max_register_size: Number(w.maxRegisterSize),
    max_number_registers: w.maxNumberRegisters,
    max_number_logs: w.maxNumberLogs,
    max_total_log_length: Number(w.maxTotalLogLength),
    max_total_prepaid_gas: Number(p.limits.maxTotalPrepaidGas),
    max_actions_per_receipt: p.limits.maxActionsPerReceipt,
    max_number_bytes_method_names: p.limits.maxNumberBytesMethodNames,
    max_length_method_name: p.limits.maxLengthMethodName,
    max_arguments_length: p.limits.maxArgumentsLength,
    max_deploy_actions_per_receipt: p.limits.maxDeployActionsPerReceipt,
    max_length_returned_data: Number(w.maxLengthReturnedData),
    max_contract_size: Number(w.maxContractSize),
    max_transaction_size: p.limits.maxTransactionSize,
    max_length_storage_key: Number(w.maxLengthStorageKey),
    max_length_storage_value: Number(w.maxLengthStorageValue),
    max_promises_per_function_call_action: w.maxPromisesPerFunctionCallAction,
    max_number_input_data_dependencies: w.maxNumberInputDataDependencies,
    max_functions_number_per_contract: w.maxFunctionsNumberPerContract,
    max_locals_per_contract: w.maxLocalsPerContract,
    max_tables_per_contract: w.maxTablesPerContract,
    max_elements_per_contract_table: w.maxElementsPerContractTable,
    max_function_body_size: w.maxFunctionBodySize,
    max_yield_payload_size: Number(w.maxYieldPayloadSize),
    yield_timeout_length_in_blocks: w.yieldTimeoutLengthInBlocks,
    ...UNENFORCED_LIMITS,
  };
}

function fee(f: RuntimeFee): Fee {
  return { send_sir: Number(f.sendSir), send_not_sir: Number(f.sendNotSir), execution: Number(f.execution) };
}
