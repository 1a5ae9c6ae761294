import { formatCryptoHash } from "../primitives/cryptoHash.js";
import { contractCodeOf } from "../state/contractCodeOf.js";
import type { FunctionCallExecutor, FunctionCallOutcome } from "../runtime/functionCallExecutor.js";
import type { NewReceipt } from "../runtime/receipt.js";
import { ContractCache } from "./ContractCache.js";
import { wasmLimitsOf } from "./wasmLimitsOf.js";
import { vmErrorJson } from "./FunctionCallError.js";
import { MemoryPool } from "./MemoryPool.js";
import { ReceiptCallContext } from "./ReceiptCallContext.js";
import { runContract } from "./runContract.js";
import { StateExternal } from "./stateExternal.js";
import { NEARCORE_RUNTIME_PARAMETERS } from "../runtime/parameters.js";

/**
 * The base58 code hash (the contract cache's key), remembered for the last few hashes: calls to
 * the same contract follow each other, and base58 of 32 bytes costs more than comparing them.
 */
const recentCodeHashes: { bytes: Uint8Array; text: string }[] = [];
const RECENT_CODE_HASHES = 8;
function codeHashString(bytes: Uint8Array): string {
  for (const recent of recentCodeHashes) if (Buffer.compare(recent.bytes, bytes) === 0) return recent.text;
  const text = formatCryptoHash(bytes);
  recentCodeHashes.unshift({ bytes: Uint8Array.from(bytes), text });
  if (recentCodeHashes.length > RECENT_CODE_HASHES) recentCodeHashes.pop();
  return text;
}

export interface WasmExecutorOptions {
  /** Prepared contracts by code hash (shared with view calls); one is made when absent. */
  readonly cache?: ContractCache;
  /** Reusable guest memories (shared with view calls); one is made when absent. */
  readonly memories?: MemoryPool;
}

/**
 * The contract VM as the runtime's FunctionCallExecutor (nearcore actions.rs
 * `action_function_call` + near-vm-runner): runs the method of the receiver's deployed wasm
 * against the receipt's state update. Promises become action receipts from the receiver,
 * signed as the receipt was, with data ids derived from the action hash
 * (`sha256(action_hash ‖ height ‖ n)`); deposits leave the balance as they are attached;
 * storage usage follows contract-data writes. Yields become PromiseYield receipts and resumes
 * PromiseResume data receipts to the receiver itself. An account using a global contract runs that
 * contract's code. An account without code fails with
 * CompilationError.CodeDoesNotExist and burns no VM gas.
 */
export function createWasmExecutor(options: WasmExecutorOptions = {}): FunctionCallExecutor {
  // Defaults only: each call prepares under, and takes memories for, its own ctx.params (runContract).
  const cache = options.cache ?? new ContractCache(wasmLimitsOf(NEARCORE_RUNTIME_PARAMETERS));
  const w = NEARCORE_RUNTIME_PARAMETERS.wasm;
  const memories = options.memories ?? new MemoryPool(w.initialMemoryPages, w.maxMemoryPages);
  return (input): FunctionCallOutcome => {
    const { ctx, su, receipt, accountId, account, action } = input;
    // The local code, or the global contract the account uses (as this shard has it).
    const contract = contractCodeOf((key) => su.get(key), accountId, account);
    if (contract === undefined) {
      return { ok: false, error: { CompilationError: { CodeDoesNotExist: { account_id: accountId } } }, gasBurnt: 0n, gasUsed: 0n, logs: [] };
    }
    const body = receipt.body;
    const context = new ReceiptCallContext(input);
    const outcome = runContract({
      codeHash: codeHashString(contract.hash),
      code: contract.code,
      methodName: action.methodName,
      context,
      params: ctx.params,
      ext: new StateExternal(su, accountId, ctx.validatorStakes),
      newDataId: context.nextDataId.bind(context),
      cache,
      memories,
    });
    if (outcome.error !== undefined) {
      return {
        ok: false,
        error: vmErrorJson(outcome.error),
        gasBurnt: outcome.burntGas,
        gasUsed: outcome.usedGas,
        logs: outcome.logs,
        gasProfile: outcome.profile,
      };
    }
    const newReceipts: NewReceipt[] = outcome.receipts.map((r) => ({
      predecessorId: accountId,
      receiverId: r.receiverId,
      body: {
        type: "Action",
        signerId: body.signerId,
        signerPublicKey: body.signerPublicKey,
        gasPrice: body.gasPrice,
        outputDataReceivers: r.outputDataReceivers,
        inputDataIds: r.inputDataIds,
        actions: r.actions,
        ...(r.isPromiseYield === true ? { isPromiseYield: true as const } : {}),
        ...(r.refundTo !== undefined ? { refundTo: r.refundTo } : {}),
      },
    }));
    // Resumed yields: data receipts to the account itself, after the action receipts (nearcore order).
    for (const { dataId, data } of outcome.resumes) {
      newReceipts.push({ predecessorId: accountId, receiverId: accountId, body: { type: "Data", dataId, data, isPromiseResume: true } });
    }
    return {
      ok: true,
      returnData: outcome.returnData,
      balance: outcome.balance,
      subsidizedAmount: outcome.subsidizedAmount,
      storageUsage: Number(outcome.storageUsage),
      gasBurnt: outcome.burntGas,
      gasUsed: outcome.usedGas,
      logs: outcome.logs,
      newReceipts,
      gasProfile: outcome.profile,
    };
  };
}
