/**
 * The nearcore runtime parameter table shardkit charges and enforces, in one place.
 *
 * Source: near/nearcore `core/parameters/res/runtime_configs/parameters.snap` (the snapshot of
 * the latest protocol's resolved parameters: `parameters.yaml` plus every `NN.yaml` diff),
 * stored version at commit 00fc9501. Values that changed over protocol history and matter here:
 *  - action_create_account 3.85 Tgas (parameters.yaml base: 99.6 Ggas);
 *  - action_function_call send 200 Ggas / exec 780 Ggas (base: 2.32 Tgas each);
 *  - per-byte not-SIR send fees 47,683,715 (base: same as SIR);
 *  - max_total_prepaid_gas / max_gas_burnt 1 PGas (83.yaml; base 300/200 Tgas);
 *  - max_transaction_size 1,572,864 (base 4 MiB), max_length_storage_key 2,048 (53.yaml);
 *  - pessimistic_gas_price_inflation 1/1 and no refund-price changes (78.yaml, NEP-536).
 * Not verified: which protocol number first carried each snapshot value (the yaml files were
 * renumbered over time); burnt_gas_reward is 3/10 in the snapshot but 87.yaml sets it to 0.
 * It only applies to gas burnt by contract code, which shardkit does not run yet.
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
}

export interface RuntimeParameters {
  readonly fees: RuntimeFees;
  readonly limits: RuntimeLimits;
  /** yoctoNEAR of balance an account must hold per byte of storage (10^19). */
  readonly storageAmountPerByte: bigint;
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
}

const fee = (sendSir: bigint, sendNotSir: bigint, execution: bigint): Fee => ({ sendSir, sendNotSir, execution });
const flat = (gas: bigint): Fee => fee(gas, gas, gas);

export const NEARCORE_RUNTIME_PARAMETERS: RuntimeParameters = {
  fees: {
    actionReceiptCreation: flat(108_059_500_000n),
    dataReceiptCreationBase: flat(36_486_732_312n),
    dataReceiptCreationPerByte: fee(17_212_011n, 47_683_715n, 17_212_011n),
    createAccount: flat(3_850_000_000_000n),
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
  },
  storageAmountPerByte: 10_000_000_000_000_000_000n,
  storageNumBytesAccount: 100,
  storageNumExtraBytesRecord: 40,
  burntGasReward: { numerator: 3n, denominator: 10n },
  minAllowedTopLevelAccountLength: 65,
  registrarAccountId: "registrar",
  accessKeyNonceRangeMultiplier: 1_000_000n,
  zeroBalanceAccountStorageLimit: 770,
  maxAccountDeletionStorageUsage: 10_000,
};

/** The send part of a fee. */
export function sendFee(f: Fee, senderIsReceiver: boolean): bigint {
  return senderIsReceiver ? f.sendSir : f.sendNotSir;
}

export const U64_MAX = (1n << 64n) - 1n;
export const U128_MAX = (1n << 128n) - 1n;
