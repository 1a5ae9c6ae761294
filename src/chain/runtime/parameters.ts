/**
 * The nearcore runtime parameter table shardkit charges and enforces, in one place.
 *
 * Source: near/nearcore `core/parameters/res/runtime_configs/parameters.snap` (the snapshot of
 * the latest protocol's resolved parameters: `parameters.yaml` plus every `NN.yaml` diff),
 * stored version at commit 00fc9501, moved to protocol 85 with the values nearcore's config-store
 * snapshot `near_parameters__config_store__tests__85.json.snap` (commit 05668890) and 85.yaml
 * change (AccountCostIncrease, NEP-642, nearcore PR #15914):
 *  - action_create_account 0.5 Tgas send / 7.2 Tgas execution (3.85 Tgas flat at 84; base 99.6 Ggas);
 *  - action_deterministic_state_init 0.5 / 0.5 / 7.43 Tgas (3.85 / 3.85 / 4.08 Tgas at 84);
 *  - min_gas_purchase_price 10^9 yN/gas and account_creation_charge 0.007 NEAR (0 at 84).
 * Values that changed earlier in protocol history and matter here:
 *  - action_function_call send 200 Ggas / exec 780 Ggas (base: 2.32 Tgas each);
 *  - per-byte not-SIR send fees 47,683,715 (base: same as SIR);
 *  - max_total_prepaid_gas / max_gas_burnt 1 PGas (83.yaml; base 300/200 Tgas);
 *  - max_transaction_size 1,572,864 (base 4 MiB), max_length_storage_key 2,048 (53.yaml);
 *  - pessimistic_gas_price_inflation 1/1 and no refund-price changes (78.yaml, NEP-536);
 *  - action_deploy_global_contract[_per_byte], action_use_global_contract[_per_identifier_byte]
 *    and global_contract_storage_amount_per_byte 0.0001 N (77.yaml; 10^27 - 1 yN before).
 * Not verified: which protocol number first carried each snapshot value (the yaml files were
 * renumbered over time); burnt_gas_reward is 3/10 in the snapshot but 87.yaml sets it to 0.
 * It only applies to gas burnt by contract code.
 * The `wasm` part (ext costs and VM limits) comes from the same snapshot: `wasm_*` costs and the
 * limit_config values (max_gas_burnt, memory pages, registers, logs, storage key/value sizes...).
 */

/** Gas of one fee: burnt on the signer shard when sending (SIR = sender is receiver) and on execution. */
export interface Fee {
  readonly sendSir: bigint;
  readonly sendNotSir: bigint;
  readonly execution: bigint;
}

export interface RuntimeFees {
  readonly actionReceiptCreation: Fee;
  readonly dataReceiptCreationBase: Fee;
  readonly dataReceiptCreationPerByte: Fee;
  readonly createAccount: Fee;
  readonly deleteAccount: Fee;
  readonly deployContractBase: Fee;
  readonly deployContractPerByte: Fee;
  readonly functionCallBase: Fee;
  readonly functionCallPerByte: Fee;
  readonly transfer: Fee;
  readonly stake: Fee;
  readonly addFullAccessKey: Fee;
  readonly addFunctionCallKeyBase: Fee;
  readonly addFunctionCallKeyPerByte: Fee;
  readonly deleteKey: Fee;
  readonly delegate: Fee;
  readonly deployGlobalContractBase: Fee;
  readonly deployGlobalContractPerByte: Fee;
  readonly useGlobalContractBase: Fee;
  /** Per byte of the identifier: 32 for a code hash, the account id's length. */
  readonly useGlobalContractPerIdentifierByte: Fee;
  /**
   * Gas burnt at conversion per ML-DSA-65 signature a transaction makes the chain verify
   * (`ml_dsa_65_verification_cost`, 100 Ggas since 85.yaml; ed25519/secp256k1 cost 0).
   */
  readonly mlDsa65Verification: bigint;
  /**
   * Gas keys (NEP-611): `action_gas_key_transfer` (TransferToGasKey, WithdrawFromGasKey),
   * `action_gas_key_byte` (per public-key / trie byte) and `action_gas_key_nonce_write_base`
   * (per nonce an AddKey of a gas key writes).
   */
  readonly gasKeyTransferBase: Fee;
  readonly gasKeyPerByte: Fee;
  readonly gasKeyNonceWriteBase: Fee;
  /** DeterministicStateInit (NEP-616): not charged yet, shardkit refuses the action. */
  readonly deterministicStateInitBase: Fee;
  readonly deterministicStateInitPerEntry: Fee;
  readonly deterministicStateInitPerByte: Fee;
}

export interface RuntimeLimits {
  readonly maxTotalPrepaidGas: bigint;
  readonly maxActionsPerReceipt: number;
  readonly maxNumberBytesMethodNames: number;
  readonly maxLengthMethodName: number;
  readonly maxArgumentsLength: number;
  readonly maxContractSize: number;
  readonly maxTransactionSize: number;
  readonly maxNumberInputDataDependencies: number;
  readonly maxLengthReturnedData: number;
  /** DeployContract and DeployGlobalContract actions a new receipt may carry. */
  readonly maxDeployActionsPerReceipt: number;
  /** Bytes of Borsh `ReceivedData` a receipt's resolved promise inputs may total (u32::MAX before 87). */
  readonly maxReceiptTotalInputSize: number;
  /** Storage entries the state-init actions of one new receipt may carry in all (u32::MAX before 87). */
  readonly maxStateInitEntries: number;
}

/** nearcore `ExtCosts`: gas of host-function work, charged by the contract VM. */
export const EXT_COST_NAMES = [
  "base",
  "contract_loading_base",
  "contract_loading_bytes",
  "read_memory_base",
  "read_memory_byte",
  "write_memory_base",
  "write_memory_byte",
  "read_register_base",
  "read_register_byte",
  "write_register_base",
  "write_register_byte",
  "utf8_decoding_base",
  "utf8_decoding_byte",
  "utf16_decoding_base",
  "utf16_decoding_byte",
  "sha256_base",
  "sha256_byte",
  "keccak256_base",
  "keccak256_byte",
  "keccak512_base",
  "keccak512_byte",
  "sha3_256_base",
  "sha3_256_byte",
  "sha3_384_base",
  "sha3_384_byte",
  "sha3_512_base",
  "sha3_512_byte",
  "ripemd160_base",
  "ripemd160_block",
  "ecrecover_base",
  "ed25519_verify_base",
  "ed25519_verify_byte",
  "p256_verify_base",
  "p256_verify_byte",
  "ml_dsa_verify_base",
  "ml_dsa_verify_byte",
  "log_base",
  "log_byte",
  "storage_write_base",
  "storage_write_key_byte",
  "storage_write_value_byte",
  "storage_write_evicted_byte",
  "storage_read_base",
  "storage_read_key_byte",
  "storage_read_value_byte",
  "storage_large_read_overhead_base",
  "storage_large_read_overhead_byte",
  "storage_remove_base",
  "storage_remove_key_byte",
  "storage_remove_ret_value_byte",
  "storage_has_key_base",
  "storage_has_key_byte",
  "touching_trie_node",
  "read_cached_trie_node",
  "promise_and_base",
  "promise_and_per_promise",
  "promise_return",
  "validator_stake_base",
  "validator_total_stake_base",
  "yield_create_base",
  "yield_create_byte",
  "yield_create_with_id_base",
  "yield_resume_base",
  "yield_resume_byte",
  "alt_bn128_g1_multiexp_base",
  "alt_bn128_g1_multiexp_element",
  "alt_bn128_g1_sum_base",
  "alt_bn128_g1_sum_element",
  "alt_bn128_pairing_check_base",
  "alt_bn128_pairing_check_element",
  "bls12381_p1_sum_base",
  "bls12381_p1_sum_element",
  "bls12381_p2_sum_base",
  "bls12381_p2_sum_element",
  "bls12381_g1_multiexp_base",
  "bls12381_g1_multiexp_element",
  "bls12381_g2_multiexp_base",
  "bls12381_g2_multiexp_element",
  "bls12381_map_fp_to_g1_base",
  "bls12381_map_fp_to_g1_element",
  "bls12381_map_fp2_to_g2_base",
  "bls12381_map_fp2_to_g2_element",
  "bls12381_pairing_base",
  "bls12381_pairing_element",
  "bls12381_p1_decompress_base",
  "bls12381_p1_decompress_element",
  "bls12381_p2_decompress_base",
  "bls12381_p2_decompress_element",
] as const;
export type ExtCost = (typeof EXT_COST_NAMES)[number];

/** nearcore `vm::Config`: what a contract call may cost and use. */
export interface WasmConfig {
  readonly extCosts: Readonly<Record<ExtCost, bigint>>;
  /** Gas per wasm instruction (finite-wasm instrumentation). */
  readonly regularOpCost: bigint;
  /** Bulk-memory operations: base + unit × bytes. */
  readonly linearOpBaseCost: bigint;
  readonly linearOpUnitCost: bigint;
  readonly maxGasBurnt: bigint;
  /** Gas limit of view calls (`max_gas_burnt_view`). */
  readonly maxGasBurntView: bigint;
  /** Bytes of wasm stack a call may use (finite-wasm stack accounting). */
  readonly maxStackHeight: bigint;
  readonly initialMemoryPages: number;
  readonly maxMemoryPages: number;
  readonly registersMemoryLimit: bigint;
  readonly maxRegisterSize: bigint;
  readonly maxNumberRegisters: number;
  readonly maxNumberLogs: number;
  readonly maxTotalLogLength: bigint;
  readonly maxLengthStorageKey: bigint;
  readonly maxLengthStorageValue: bigint;
  readonly maxPromisesPerFunctionCallAction: number;
  readonly maxNumberInputDataDependencies: number;
  readonly maxLengthReturnedData: bigint;
  readonly maxContractSize: bigint;
  readonly maxFunctionsNumberPerContract: number;
  readonly maxLocalsPerContract: number;
  readonly maxTablesPerContract: number;
  readonly maxElementsPerContractTable: number;
  readonly maxFunctionBodySize: number;
  readonly maxYieldPayloadSize: bigint;
  /** Blocks after which a yield that got no data resumes with none (PromiseResult Failed). */
  readonly yieldTimeoutLengthInBlocks: number;
  /** A contract may declare one local per this many bytes of its code; undefined: no such limit (before 87). */
  readonly minContractSizePerLocal: number | undefined;
  /** The ml_dsa_verify host function is linked (87). */
  readonly mlDsaVerifyHostFn: boolean;
  /** The sha3_256, sha3_384 and sha3_512 host functions are linked (87). */
  readonly sha3HostFns: boolean;
  /** A compiled module that fails to load charges contract loading and aborts with gas (87). */
  readonly fixContractLoadingError: boolean;
  /** Gas-key host functions price storage on the key's trie id length (87, FixMlDsaCostCharging). */
  readonly fixMlDsaCostCharging: boolean;
}

export interface RuntimeParameters {
  readonly fees: RuntimeFees;
  readonly limits: RuntimeLimits;
  readonly wasm: WasmConfig;
  /** yoctoNEAR of balance an account must hold per byte of storage (10^19). */
  readonly storageAmountPerByte: bigint;
  /**
   * yoctoNEAR per gas: the lowest price a transaction's receipt gas is bought at (NEP-642);
   * what was overpaid on burnt gas is refunded (gasPricing.ts).
   */
  readonly minGasPurchasePrice: bigint;
  /** yoctoNEAR an account created by a receipt should cost in all (NEP-642, gasPricing.ts). */
  readonly accountCreationCharge: bigint;
  /** yoctoNEAR burnt per byte of code by DeployGlobalContract (0.0001 NEAR, 77.yaml). */
  readonly globalContractStorageAmountPerByte: bigint;
  /** Bytes every account record costs (100). */
  readonly storageNumBytesAccount: number;
  /** Bytes added to every access key or data record (40). */
  readonly storageNumExtraBytesRecord: number;
  /** Share of function-call gas paid to the contract account. */
  readonly burntGasReward: { readonly numerator: bigint; readonly denominator: bigint };
  /** Top-level accounts shorter than this can only be created by the registrar. */
  readonly minAllowedTopLevelAccountLength: number;
  readonly registrarAccountId: string;
  /** nearcore `AccessKey::ACCESS_KEY_NONCE_RANGE_MULTIPLIER`. */
  readonly accessKeyNonceRangeMultiplier: bigint;
  /** NEP-448: accounts using at most this many bytes need no balance for storage (verifier.rs). */
  readonly zeroBalanceAccountStorageLimit: number;
  /** nearcore `Account::MAX_ACCOUNT_DELETION_STORAGE_USAGE` (storage without code). */
  readonly maxAccountDeletionStorageUsage: number;
  /** NEP-655: `0u` account ids are implicit, so a Transfer can create one (87). */
  readonly universalAccounts: boolean;
}

const fee = (sendSir: bigint, sendNotSir: bigint, execution: bigint): Fee => ({ sendSir, sendNotSir, execution });
const flat = (gas: bigint): Fee => fee(gas, gas, gas);

export const NEARCORE_RUNTIME_PARAMETERS: RuntimeParameters = {
  fees: {
    actionReceiptCreation: flat(108_059_500_000n),
    dataReceiptCreationBase: flat(36_486_732_312n),
    dataReceiptCreationPerByte: fee(17_212_011n, 47_683_715n, 17_212_011n),
    createAccount: fee(500_000_000_000n, 500_000_000_000n, 7_200_000_000_000n),
    deleteAccount: flat(147_489_000_000n),
    deployContractBase: flat(184_765_750_000n),
    deployContractPerByte: fee(6_812_999n, 47_683_715n, 64_572_944n),
    functionCallBase: fee(200_000_000_000n, 200_000_000_000n, 780_000_000_000n),
    functionCallPerByte: fee(2_235_934n, 47_683_715n, 2_235_934n),
    transfer: flat(115_123_062_500n),
    stake: fee(141_715_687_500n, 141_715_687_500n, 102_217_625_000n),
    addFullAccessKey: flat(101_765_125_000n),
    addFunctionCallKeyBase: flat(102_217_625_000n),
    addFunctionCallKeyPerByte: fee(1_925_331n, 47_683_715n, 1_925_331n),
    deleteKey: flat(94_946_625_000n),
    delegate: flat(200_000_000_000n),
    deployGlobalContractBase: flat(184_765_750_000n),
    deployGlobalContractPerByte: fee(6_812_999n, 47_683_715n, 70_000_000n),
    useGlobalContractBase: flat(184_765_750_000n),
    useGlobalContractPerIdentifierByte: fee(6_812_999n, 47_683_715n, 64_572_944n),
    mlDsa65Verification: 100_000_000_000n,
    gasKeyTransferBase: fee(115_123_062_500n, 115_123_062_500n, 235_676_644_250n),
    gasKeyPerByte: fee(59_357_464n, 59_357_464n, 101_435_400n),
    gasKeyNonceWriteBase: fee(0n, 0n, 64_196_736_000n),
    deterministicStateInitBase: fee(500_000_000_000n, 500_000_000_000n, 7_430_000_000_000n),
    deterministicStateInitPerEntry: fee(0n, 0n, 200_000_000_000n),
    deterministicStateInitPerByte: fee(72_000_000n, 72_000_000n, 70_000_000n),
  },
  limits: {
    maxTotalPrepaidGas: 1_000_000_000_000_000n,
    maxActionsPerReceipt: 100,
    maxNumberBytesMethodNames: 2_000,
    maxLengthMethodName: 256,
    maxArgumentsLength: 4_194_304,
    maxContractSize: 4_194_304,
    maxTransactionSize: 1_572_864,
    maxNumberInputDataDependencies: 128,
    maxLengthReturnedData: 4_194_304,
    maxDeployActionsPerReceipt: 10,
    maxReceiptTotalInputSize: 4_294_967_295,
    maxStateInitEntries: 4_294_967_295,
  },
  wasm: {
    extCosts: {
      base: 264_768_111n,
      contract_loading_base: 35_445_963n,
      contract_loading_bytes: 1_089_295n,
      read_memory_base: 2_609_863_200n,
      read_memory_byte: 3_801_333n,
      write_memory_base: 2_803_794_861n,
      write_memory_byte: 2_723_772n,
      read_register_base: 2_517_165_186n,
      read_register_byte: 98_562n,
      write_register_base: 2_865_522_486n,
      write_register_byte: 3_801_564n,
      utf8_decoding_base: 3_111_779_061n,
      utf8_decoding_byte: 291_580_479n,
      utf16_decoding_base: 3_543_313_050n,
      utf16_decoding_byte: 163_577_493n,
      sha256_base: 4_540_970_250n,
      sha256_byte: 24_117_351n,
      keccak256_base: 5_879_491_275n,
      keccak256_byte: 21_471_105n,
      keccak512_base: 5_811_388_236n,
      keccak512_byte: 36_649_701n,
      // parameters.yaml: SHA3 reuses the keccak costs (sha3_256 keccak256's, sha3_384/512 keccak512's).
      sha3_256_base: 5_879_491_275n,
      sha3_256_byte: 21_471_105n,
      sha3_384_base: 5_811_388_236n,
      sha3_384_byte: 36_649_701n,
      sha3_512_base: 5_811_388_236n,
      sha3_512_byte: 36_649_701n,
      ripemd160_base: 853_675_086n,
      ripemd160_block: 680_107_584n,
      ecrecover_base: 278_821_988_457n,
      ed25519_verify_base: 210_000_000_000n,
      ed25519_verify_byte: 9_000_000n,
      p256_verify_base: 1_300_000_000_000n,
      p256_verify_byte: 13_000_000n,
      // nearcore PR #16104 (cost.rs: 3 × 180 Ggas, 3 × 3,666,666); not read from parameters.yaml itself.
      ml_dsa_verify_base: 540_000_000_000n,
      ml_dsa_verify_byte: 11_000_000n,
      log_base: 3_543_313_050n,
      log_byte: 13_198_791n,
      storage_write_base: 64_196_736_000n,
      storage_write_key_byte: 70_482_867n,
      storage_write_value_byte: 31_018_539n,
      storage_write_evicted_byte: 32_117_307n,
      storage_read_base: 56_356_845_749n,
      storage_read_key_byte: 30_952_533n,
      storage_read_value_byte: 5_611_004n,
      storage_large_read_overhead_base: 1n,
      storage_large_read_overhead_byte: 1n,
      storage_remove_base: 53_473_030_500n,
      storage_remove_key_byte: 38_220_384n,
      storage_remove_ret_value_byte: 11_531_556n,
      storage_has_key_base: 54_039_896_625n,
      storage_has_key_byte: 30_790_845n,
      touching_trie_node: 2_280_000_000n,
      read_cached_trie_node: 2_280_000_000n,
      promise_and_base: 1_465_013_400n,
      promise_and_per_promise: 5_452_176n,
      promise_return: 560_152_386n,
      validator_stake_base: 911_834_726_400n,
      validator_total_stake_base: 911_834_726_400n,
      yield_create_base: 153_411_779_276n,
      yield_create_byte: 15_643_988n,
      // Protocol 85 (YieldWithId, 85 config-store snapshot): two more trie writes than yield_create.
      yield_create_with_id_base: 290_000_000_000n,
      yield_resume_base: 1_195_627_285_210n,
      yield_resume_byte: 47_683_715n,
      alt_bn128_g1_multiexp_base: 713_000_000_000n,
      alt_bn128_g1_multiexp_element: 320_000_000_000n,
      alt_bn128_g1_sum_base: 3_000_000_000n,
      alt_bn128_g1_sum_element: 5_000_000_000n,
      alt_bn128_pairing_check_base: 9_686_000_000_000n,
      alt_bn128_pairing_check_element: 5_102_000_000_000n,
      bls12381_p1_sum_base: 16_500_000_000n,
      bls12381_p1_sum_element: 6_000_000_000n,
      bls12381_p2_sum_base: 18_600_000_000n,
      bls12381_p2_sum_element: 15_000_000_000n,
      bls12381_g1_multiexp_base: 16_500_000_000n,
      bls12381_g1_multiexp_element: 930_000_000_000n,
      bls12381_g2_multiexp_base: 18_600_000_000n,
      bls12381_g2_multiexp_element: 1_995_000_000_000n,
      bls12381_map_fp_to_g1_base: 1_500_000_000n,
      bls12381_map_fp_to_g1_element: 252_000_000_000n,
      bls12381_map_fp2_to_g2_base: 1_500_000_000n,
      bls12381_map_fp2_to_g2_element: 900_000_000_000n,
      bls12381_pairing_base: 2_130_000_000_000n,
      bls12381_pairing_element: 2_130_000_000_000n,
      bls12381_p1_decompress_base: 15_000_000_000n,
      bls12381_p1_decompress_element: 81_000_000_000n,
      bls12381_p2_decompress_base: 15_000_000_000n,
      bls12381_p2_decompress_element: 165_000_000_000n,
    },
    regularOpCost: 822_756n,
    linearOpBaseCost: 26_328_192n,
    linearOpUnitCost: 822_756n,
    maxGasBurnt: 1_000_000_000_000_000n,
    maxGasBurntView: 1_000_000_000_000_000n,
    maxStackHeight: 262_144n,
    initialMemoryPages: 1_024,
    maxMemoryPages: 2_048,
    registersMemoryLimit: 1_073_741_824n,
    maxRegisterSize: 104_857_600n,
    maxNumberRegisters: 100,
    maxNumberLogs: 100,
    maxTotalLogLength: 16_384n,
    maxLengthStorageKey: 2_048n,
    maxLengthStorageValue: 4_194_304n,
    maxPromisesPerFunctionCallAction: 1_024,
    maxNumberInputDataDependencies: 128,
    maxLengthReturnedData: 4_194_304n,
    maxContractSize: 4_194_304n,
    maxFunctionsNumberPerContract: 10_000,
    maxLocalsPerContract: 1_000_000,
    maxTablesPerContract: 1,
    maxElementsPerContractTable: 10_000,
    maxFunctionBodySize: 196_608,
    maxYieldPayloadSize: 1_024n,
    yieldTimeoutLengthInBlocks: 200,
    minContractSizePerLocal: undefined,
    mlDsaVerifyHostFn: false,
    sha3HostFns: false,
    fixContractLoadingError: false,
    fixMlDsaCostCharging: false,
  },
  storageAmountPerByte: 10_000_000_000_000_000_000n,
  minGasPurchasePrice: 1_000_000_000n,
  accountCreationCharge: 7_000_000_000_000_000_000_000n,
  globalContractStorageAmountPerByte: 100_000_000_000_000_000_000n,
  storageNumBytesAccount: 100,
  storageNumExtraBytesRecord: 40,
  burntGasReward: { numerator: 3n, denominator: 10n },
  minAllowedTopLevelAccountLength: 65,
  registrarAccountId: "registrar",
  accessKeyNonceRangeMultiplier: 1_000_000n,
  zeroBalanceAccountStorageLimit: 770,
  maxAccountDeletionStorageUsage: 10_000,
  universalAccounts: false,
};

/**
 * Protocol 87 (nearcore 2.14): `core/parameters/res/runtime_configs/87.yaml` (commit 0d8e7e07)
 * applied to the table above.
 */
const PROTOCOL_87_PARAMETERS: RuntimeParameters = {
  ...NEARCORE_RUNTIME_PARAMETERS,
  limits: { ...NEARCORE_RUNTIME_PARAMETERS.limits, maxReceiptTotalInputSize: 4_194_944, maxStateInitEntries: 1_500 },
  wasm: {
    ...NEARCORE_RUNTIME_PARAMETERS.wasm,
    minContractSizePerLocal: 2,
    mlDsaVerifyHostFn: true,
    sha3HostFns: true,
    fixContractLoadingError: true,
    fixMlDsaCostCharging: true,
  },
  burntGasReward: { numerator: 0n, denominator: 1n },
  universalAccounts: true,
};

/** The parameter table of a protocol version: 87's from 87, the one above (85's, kept by 86) before. */
export function runtimeParametersFor(protocolVersion: number): RuntimeParameters {
  return protocolVersion >= 87 ? PROTOCOL_87_PARAMETERS : NEARCORE_RUNTIME_PARAMETERS;
}

/** The send part of a fee. */
export function sendFee(f: Fee, senderIsReceiver: boolean): bigint {
  return senderIsReceiver ? f.sendSir : f.sendNotSir;
}

