import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { Block } from "../blocks/Block.js";
import type { AccessKey } from "@shardkit/primitives/accessKey";
import { formatCryptoHash } from "../primitives/cryptoHash.js";
import { DelayedReceiptQueue } from "../runtime/DelayedReceiptQueue.js";
import type { RuntimeParameters } from "../runtime/parameters.js";
import type { GlobalContractKeyId } from "../runtime/runtimeTrieKeys.js";
import { StateUpdate } from "../runtime/StateUpdate.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import type { StateSnapshot } from "../store/stateStore.js";
import type { CallFunctionOutcome } from "../vm/CallFunctionOutcome.js";
import type { ContractCache } from "../vm/ContractCache.js";
import type { MemoryPool } from "../vm/MemoryPool.js";
import { UnknownAccountError } from "../vm/UnknownAccountError.js";
import { viewFunctionCall } from "../vm/viewFunctionCall.js";
import type { ViewLimits } from "../vm/ViewLimits.js";
import {
  codeLengthIn,
  readAccount,
  storageUsageIn,
  viewAccessKeyIn,
  viewAccessKeysIn,
  viewGasKeyNoncesIn,
  viewAccountIn,
  viewCodeIn,
  viewGlobalContractCodeIn,
  type AccountView,
} from "./accountViews.js";
import { viewStateIn, type ViewStateOptions, type ViewStateResult } from "./viewStateIn.js";
import { at } from "../must.js";

/** nearcore's default `trie_viewer_state_size_limit`: the most contract state an unpaginated `view_state` returns, in bytes. */
export const STATE_VIEW_SIZE_LIMIT = 50_000;

/** An unpaginated `view_state` of a contract holding more than its size limit (nearcore `TooLargeContractState`). */
export class ContractStateTooLargeError extends ShardkitError<"TOO_LARGE_CONTRACT_STATE"> {
  override readonly name = "ContractStateTooLargeError";
  constructor(readonly accountId: string) {
    super("TOO_LARGE_CONTRACT_STATE", `State of contract ${accountId} is too large to be viewed`);
  }
}

/** What view calls run with: the VM's caches and what contracts see of the chain. */
export interface ViewHost {
  readonly layout: ShardLayout;
  readonly params: RuntimeParameters;
  readonly contracts: ContractCache;
  readonly memories: MemoryPool;
  readonly validatorStakes: ReadonlyMap<string, bigint>;
  /** The genesis chain id (chain_id in view calls). */
  readonly chainId: string;
  /** The epoch height (1-based) contracts see at a block height. */
  epochHeightAt(height: number): number;
}

/**
 * The chain's state after one block (nearcore's TrieViewer over the block's state roots): the
 * one place accounts, keys, code, paged contract state and view calls are read. Cheap to make:
 * it holds the block and reads its tries on demand.
 */
export class StateView {
  constructor(
    readonly block: Block,
    private readonly host: ViewHost,
  ) {}

  /** A shard's state (throws RangeError for an unknown shard id). */
  shard(shardId: number): StateSnapshot {
    const index = this.host.layout.indexOfShardId(shardId);
    if (index === undefined) throw new RangeError(`unknown shard id ${shardId}`);
    return at(this.block.postState, index);
  }

  /** base58 state root of a shard (= the next block's chunk prev_state_root). */
  stateRoot(shardId: number): string {
    return formatCryptoHash(this.shard(shardId).rootHash);
  }

  /** Receipts waiting in a shard's delayed queue. */
  delayedReceiptCount(shardId: number): number {
    return DelayedReceiptQueue.load(new StateUpdate(this.shard(shardId))).length;
  }

  account(accountId: string): AccountView | undefined {
    return viewAccountIn(this.stateOf(accountId), accountId);
  }

  /** Storage usage of an account (undefined when it does not exist), without a full decode. */
  storageUsage(accountId: string): number | undefined {
    return storageUsageIn(this.stateOf(accountId), accountId);
  }

  /** `publicKey` is "ed25519:…"/"secp256k1:…"; throws PublicKeyError when malformed. Nonce is a bigint. */
  accessKey(accountId: string, publicKey: string): AccessKey | undefined {
    return viewAccessKeyIn(this.stateOf(accountId), accountId, publicKey);
  }

  accessKeys(accountId: string): { publicKey: string; accessKey: AccessKey }[] {
    return viewAccessKeysIn(this.stateOf(accountId), accountId);
  }

  /** The per-index nonces of a gas key; undefined when the key is missing or not a gas key. */
  gasKeyNonces(accountId: string, publicKey: string): bigint[] | undefined {
    return viewGasKeyNoncesIn(this.stateOf(accountId), accountId, publicKey);
  }

  code(accountId: string): Uint8Array | undefined {
    return viewCodeIn(this.stateOf(accountId), accountId);
  }

  /** A global contract's code on the first shard (nearcore reads one shard; every shard gets a copy). */
  globalContractCode(id: GlobalContractKeyId): Uint8Array | undefined {
    return viewGlobalContractCodeIn(this.shard(at(this.host.layout.shardIds, 0)), id);
  }

  /** Deployed code length in bytes (0 without code). */
  codeLength(accountId: string): number {
    return codeLengthIn(this.stateOf(accountId), accountId);
  }

  /**
   * Contract state with nearcore's paging and proof, checked as nearcore's
   * `TrieViewer::view_state` checks it: the account must exist (else UnknownAccountError),
   * and with a `sizeLimit` (the node's `trie_viewer_state_size_limit`, STATE_VIEW_SIZE_LIMIT
   * by default in the RPC) an unpaginated read (no `limit`, no `afterKey`) of a contract whose
   * storage usage without its code exceeds it is refused (ContractStateTooLargeError).
   * Paging and page caps: see viewStateIn.
   */
  contractState(accountId: string, options: ViewStateOptions & { readonly sizeLimit?: number }): ViewStateResult {
    const state = this.stateOf(accountId);
    const usage = storageUsageIn(state, accountId);
    if (usage === undefined) throw new UnknownAccountError(accountId);
    const paginated = options.afterKey !== undefined || options.limit !== undefined;
    if (!paginated && options.sizeLimit !== undefined && usage - codeLengthIn(state, accountId) > options.sizeLimit) {
      throw new ContractStateTooLargeError(accountId);
    }
    return viewStateIn(state, accountId, options);
  }

  /**
   * Runs `methodName` of `accountId`'s contract as a view call (nearcore `query`
   * `call_function`). Errors of the call (no code, no such method, a panic, a prohibited host
   * function...) come back in the outcome with nearcore's JSON and legacy message. Throws
   * UnknownAccountError when the account does not exist. `limits` tightens the gas and
   * wall-clock budget (see ViewLimits).
   */
  callFunction(accountId: string, methodName: string, args: Uint8Array, limits?: ViewLimits): CallFunctionOutcome {
    const state = this.stateOf(accountId);
    const account = readAccount(state, accountId);
    if (account === undefined) throw new UnknownAccountError(accountId);
    const { block, host } = this;
    return viewFunctionCall({
      state,
      block: {
        chainId: host.chainId,
        height: block.height,
        timestampNs: block.timestampNs,
        epochHeight: host.epochHeightAt(block.height),
        validatorStakes: host.validatorStakes,
      },
      accountId,
      account,
      methodName,
      args,
      params: host.params,
      cache: host.contracts,
      memories: host.memories,
      ...(limits === undefined ? {} : { limits }),
    });
  }

  private stateOf(accountId: string): StateSnapshot {
    return at(this.block.postState, this.host.layout.shardIndexOf(accountId));
  }
}
