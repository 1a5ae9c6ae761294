import { publicKeyToBorsh } from "@shardkit/primitives/publicKey";
import { sha256 } from "../primitives/sha256.js";
import type { GlobalContractRef } from "../primitives/account.js";
import type { FunctionCallInput } from "../runtime/functionCallExecutor.js";
import { actionHash, dataId } from "../runtime/receiptId.js";
import type { VmContext } from "./VmContext.js";

/**
 * nearcore utils.rs `create_random_seed` (current protocol): sha256(action_hash ‖ block
 * random_value), so every action, even within one receipt, sees its own seed.
 */
export function actionRandomSeed(actionHashBytes: Uint8Array, blockRandomValue: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(actionHashBytes.length + blockRandomValue.length);
  bytes.set(actionHashBytes, 0);
  bytes.set(blockRandomValue, actionHashBytes.length);
  return sha256(bytes);
}

const NO_RECEIVERS: readonly string[] = [];

/**
 * What a FunctionCall action of a receipt sees (VmContext), with the data ids of the promises
 * it creates (`sha256(action_hash ‖ height ‖ n)`) and its code read from the state. One is made
 * per call: a class, so that the fields are set in one constructor and the lazy parts are
 * prototype getters, where an object literal with getters and closures beside it cost
 * more per call. The action hash (for data ids and the random seed), the seed and the signer
 * key in borsh are made when the call asks for them: most calls never do, and each is a
 * sha256 or an encoding.
 */
export class ReceiptCallContext implements VmContext {
  readonly chainId: string;
  readonly currentAccountId: string;
  readonly signerAccountId: string;
  readonly predecessorAccountId: string;
  readonly refundToAccountId: string;
  readonly input: Uint8Array;
  readonly promiseResults: readonly (Uint8Array | null)[];
  readonly blockHeight: bigint;
  readonly blockTimestamp: bigint;
  readonly epochHeight: bigint;
  readonly accountBalance: bigint;
  readonly accountLockedBalance: bigint;
  readonly storageUsage: bigint;
  readonly attachedDeposit: bigint;
  readonly prepaidGas: bigint;
  readonly isView = false;
  readonly outputDataReceivers: readonly string[];
  readonly codeHash: Uint8Array;
  readonly globalContract: GlobalContractRef | undefined;
  private hash: Uint8Array | undefined;
  private seed: Uint8Array | undefined;
  private signerPk: Uint8Array | undefined;
  private dataCount = 0;

  constructor(private readonly call: FunctionCallInput) {
    const { ctx, receipt, account, action } = call;
    const body = receipt.body;
    this.chainId = ctx.chainId;
    this.currentAccountId = call.accountId;
    this.signerAccountId = body.signerId;
    this.predecessorAccountId = receipt.predecessorId;
    this.refundToAccountId = body.refundTo ?? receipt.predecessorId;
    this.input = action.args;
    this.promiseResults = call.promiseResults;
    this.blockHeight = BigInt(ctx.blockHeight);
    this.blockTimestamp = ctx.blockTimestampNs;
    this.epochHeight = BigInt(ctx.epochHeight);
    this.accountBalance = account.amount;
    this.accountLockedBalance = account.locked;
    this.storageUsage = BigInt(account.storageUsage);
    this.attachedDeposit = action.deposit;
    this.prepaidGas = action.gas;
    // nearcore action_function_call: only the batch's last action feeds the receipt's data
    // receivers, so an earlier action's value_return pays no data-receipt bytes.
    this.outputDataReceivers = call.isLastAction && body.outputDataReceivers.length > 0 ? body.outputDataReceivers.map((r) => r.receiverId) : NO_RECEIVERS;
    this.codeHash = account.codeHash;
    this.globalContract = account.globalContract;
  }

  get signerAccountPk(): Uint8Array {
    return (this.signerPk ??= publicKeyToBorsh(this.call.receipt.body.signerPublicKey));
  }

  get randomSeed(): Uint8Array {
    return (this.seed ??= actionRandomSeed(this.actionHash(), this.call.ctx.randomSeed));
  }

  /** The next data id of the call (nearcore `generate_data_id`). */
  nextDataId(): Uint8Array {
    return dataId(this.actionHash(), this.call.ctx.blockHeight, this.dataCount++);
  }

  private actionHash(): Uint8Array {
    return (this.hash ??= actionHash(this.call.receipt.receiptId, this.call.ctx.blockHeight, this.call.actionIndex));
  }
}
