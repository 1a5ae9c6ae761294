import { contractCodeOf } from "../state/contractCodeOf.js";
import type { Account } from "../primitives/account.js";
import { formatCryptoHash } from "../primitives/cryptoHash.js";
import { KeyType, publicKeyToBorsh } from "@shardkit/primitives/publicKey";
import type { RuntimeParameters } from "../runtime/parameters.js";
import type { StateSnapshot } from "../store/stateStore.js";
import type { CallFunctionOutcome } from "./CallFunctionOutcome.js";
import type { ContractCache } from "./ContractCache.js";
import { viewErrorMessage, vmErrorJson, type VmError } from "./FunctionCallError.js";
import type { MemoryPool } from "./MemoryPool.js";
import { runContract } from "./runContract.js";
import { stateExternal } from "./stateExternal.js";
import type { ViewLimits } from "./ViewLimits.js";

/** The block a view call reads: its post-state and what contracts see of it. */
export interface ViewBlock {
  /** The genesis chain id. */
  readonly chainId: string;
  readonly height: number;
  readonly timestampNs: bigint;
  readonly epochHeight: number;
  readonly validatorStakes: ReadonlyMap<string, bigint>;
}

export interface ViewCall {
  readonly state: StateSnapshot;
  readonly block: ViewBlock;
  readonly accountId: string;
  readonly account: Account;
  readonly methodName: string;
  readonly args: Uint8Array;
  readonly params: RuntimeParameters;
  readonly cache: ContractCache;
  readonly memories?: MemoryPool;
  readonly limits?: ViewLimits;
}

const EMPTY_ED25519 = publicKeyToBorsh({ keyType: KeyType.ED25519, data: new Uint8Array(32) });

/**
 * nearcore state_viewer `call_function`: the method runs as a view (signer and predecessor =
 * the contract, empty key, no deposit, prepaid gas = max_gas_burnt_view, random seed = the
 * state root, state changes and promises prohibited). A failure answers nearcore's JSON and
 * the legacy "wasm execution failed with error: {Debug}" text; logs are kept either way.
 */
export function viewFunctionCall(call: ViewCall): CallFunctionOutcome {
  const { state, account, accountId } = call;
  const fail = (error: VmError, logs: readonly string[]): CallFunctionOutcome => ({
    ok: false,
    error: vmErrorJson(error),
    message: viewErrorMessage(error),
    logs,
  });
  const contract = contractCodeOf((key) => state.get(key), accountId, account);
  if (contract === undefined) {
    return fail({ kind: "CompilationError", error: { kind: "CodeDoesNotExist", accountId } }, []);
  }
  const outcome = runContract({
    codeHash: formatCryptoHash(contract.hash),
    code: contract.code,
    methodName: call.methodName,
    context: {
      chainId: call.block.chainId,
      currentAccountId: accountId,
      signerAccountId: accountId,
      signerAccountPk: EMPTY_ED25519,
      predecessorAccountId: accountId,
      input: call.args,
      promiseResults: [],
      blockHeight: BigInt(call.block.height),
      blockTimestamp: call.block.timestampNs,
      epochHeight: BigInt(call.block.epochHeight),
      accountBalance: account.amount,
      accountLockedBalance: account.locked,
      storageUsage: BigInt(account.storageUsage),
      attachedDeposit: 0n,
      prepaidGas: call.params.wasm.maxGasBurntView,
      randomSeed: state.rootHash,
      isView: true,
      outputDataReceivers: [],
      codeHash: account.codeHash,
      globalContract: account.globalContract,
    },
    params: call.params,
    ext: stateExternal(state, accountId, call.block.validatorStakes),
    newDataId: () => {
      throw new Error("a view call creates no data ids");
    },
    cache: call.cache,
    ...(call.memories === undefined ? {} : { memories: call.memories }),
    ...(call.limits?.gas === undefined ? {} : { viewGasLimit: call.limits.gas }),
    ...(call.limits?.timeLimitMs === undefined ? {} : { timeLimitMs: call.limits.timeLimitMs }),
  });
  if (outcome.error !== undefined) return fail(outcome.error, outcome.logs);
  const rd = outcome.returnData;
  return { ok: true, result: rd.kind === "Value" ? rd.value : new Uint8Array(0), logs: outcome.logs };
}
