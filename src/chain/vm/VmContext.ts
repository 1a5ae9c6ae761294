import type { GlobalContractRef } from "../primitives/account.js";

/**
 * nearcore `VMContext`: what a contract call sees of the receipt, the block and the account.
 * u64 values are bigint because they cross the wasm boundary as i64.
 */
export interface VmContext {
  /** The genesis chain id (chain_id host function). */
  readonly chainId: string;
  readonly currentAccountId: string;
  readonly signerAccountId: string;
  /** The signer's public key, borsh (key type byte + key bytes). */
  readonly signerAccountPk: Uint8Array;
  readonly predecessorAccountId: string;
  /** Who gets the receipt's deposit refunds (nearcore `balance_refund_receiver`); the predecessor when absent. */
  readonly refundToAccountId?: string;
  /** Call arguments, raw bytes. */
  readonly input: Uint8Array;
  /** Results of the receipt's input data, in order (null = the promise failed). */
  readonly promiseResults: readonly (Uint8Array | null)[];
  readonly blockHeight: bigint;
  /** Block timestamp, ns. */
  readonly blockTimestamp: bigint;
  readonly epochHeight: bigint;
  /** Liquid balance before the attached deposit is added. */
  readonly accountBalance: bigint;
  readonly accountLockedBalance: bigint;
  readonly storageUsage: bigint;
  readonly attachedDeposit: bigint;
  readonly prepaidGas: bigint;
  /** 32 bytes. */
  readonly randomSeed: Uint8Array;
  /** View calls: no state changes, no promises, unlimited prepaid gas (capped by max_gas_burnt_view). */
  readonly isView: boolean;
  /** Receivers of this receipt's result (value_return charges data-receipt bytes per receiver). */
  readonly outputDataReceivers: readonly string[];
  /** sha256 of the account's local code, all zeros without one (current_contract_code). */
  readonly codeHash: Uint8Array;
  /** The global contract the account runs instead, if any (current_contract_code). */
  readonly globalContract?: GlobalContractRef | undefined;
}
