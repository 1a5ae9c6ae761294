import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { rpcErrorCauses, type RpcErrorCauseData, type RpcErrorCauseInfo, type RpcErrorCauseName } from "../../generated/rpc/errors.js";
import type { InvalidTxError, UnknownBlockInfo } from "../../generated/rpc/types.js";

/** The legacy `message` nearcore pairs with each JSON-RPC code. */
const legacyMessages: Record<number, string> = {
  [-32700]: "Parse error",
  [-32601]: "Method not found",
  [-32000]: "Server error",
};

/** The error object as nearcore puts it on the wire. */
export interface RpcErrorBody {
  name: string;
  /** `info` is absent for causes nearcore serialises without one (TIMEOUT_ERROR). */
  cause: { name: string; info?: unknown };
  code: number;
  message: string;
  data: unknown;
}

/**
 * Base of every error a handler can answer with. It carries the wire cause (`name` + `info`),
 * the legacy `data` (nearcore's Display string, or a structured value for a few causes) and
 * derives the top-level name, JSON-RPC code and HTTP status from the generated cause catalogue.
 * `info` and `data` have the generated types of cause `C`.
 */
export class RpcError<C extends RpcErrorCauseName = RpcErrorCauseName> extends ShardkitError<C> {
  override name = "RpcError";
  /** The wire cause, as `code` is too. */
  readonly causeName: C;
  readonly info: RpcErrorCauseInfo[C];
  readonly data: RpcErrorCauseData[C];

  constructor(causeName: C, info: RpcErrorCauseInfo[C], data: RpcErrorCauseData[C]) {
    super(causeName, typeof data === "string" ? data : causeName);
    this.causeName = causeName;
    this.info = info;
    this.data = data;
  }

  get httpStatus(): number {
    return rpcErrorCauses[this.causeName].httpStatus;
  }

  toBody(): RpcErrorBody {
    return errorBody(this.causeName, this.info, this.data);
  }
}

/**
 * A fork upstream's JSON-RPC error of a cause the catalogue knows, relayed as the upstream sent
 * it: its `info` and `data` are the upstream's (a newer nearcore may send more than the spec
 * says), so they stay `unknown` here, where RpcError types them.
 */
export class RelayedRpcError extends ShardkitError<RpcErrorCauseName> {
  override name = "RelayedRpcError";

  constructor(
    readonly causeName: RpcErrorCauseName,
    readonly info: unknown,
    readonly data: unknown,
  ) {
    super(causeName, typeof data === "string" ? data : causeName);
  }

  get httpStatus(): number {
    return rpcErrorCauses[this.causeName].httpStatus;
  }

  toBody(): RpcErrorBody {
    return errorBody(this.causeName, this.info, this.data);
  }
}

/** The error object of a cause with its `info` and `data`, named, coded and worded from the catalogue. */
function errorBody(causeName: RpcErrorCauseName, info: unknown, data: unknown): RpcErrorBody {
  const entry = rpcErrorCauses[causeName];
  return {
    name: entry.error,
    cause: info === undefined ? { name: causeName } : { name: causeName, info },
    code: entry.code,
    message: legacyMessages[entry.code] ?? "Server error",
    data,
  };
}

/** Malformed request, unparsable or invalid params: REQUEST_VALIDATION_ERROR, -32700, HTTP 400. */
export class ParseError extends RpcError<"PARSE_ERROR"> {
  constructor(message: string) {
    super("PARSE_ERROR", { error_message: message }, message);
  }
}

export class MethodNotFoundError extends RpcError<"METHOD_NOT_FOUND"> {
  constructor(method: string) {
    super("METHOD_NOT_FOUND", { method_name: method }, method);
  }
}

/** Unexpected failure inside the server; HTTP 500. */
export class InternalError extends RpcError<"INTERNAL_ERROR"> {
  constructor(message: string) {
    super("INTERNAL_ERROR", { error_message: message }, message);
  }
}

/** Where a failing lookup happened, as nearcore reports it in most query causes. */
export interface BlockPoint {
  block_height: number;
  block_hash: string;
}

export class UnknownBlockError extends RpcError<"UNKNOWN_BLOCK"> {
  /** `info` is the block reference for `query`, `{}` for `block` (nearcore skips the message). */
  constructor(info: UnknownBlockInfo, data: RpcErrorCauseData["UNKNOWN_BLOCK"]) {
    super("UNKNOWN_BLOCK", info, data);
  }
}

export class GarbageCollectedBlockError extends RpcError<"GARBAGE_COLLECTED_BLOCK"> {
  constructor(at: BlockPoint) {
    super(
      "GARBAGE_COLLECTED_BLOCK",
      at,
      `The data for block #${at.block_height} is garbage collected on this node, use an archival node to fetch historical data`,
    );
  }
}

export class InvalidAccountError extends RpcError<"INVALID_ACCOUNT"> {
  constructor(accountId: string, at: BlockPoint) {
    super("INVALID_ACCOUNT", { requested_account_id: accountId, ...at }, `Account ID ${accountId} is invalid`);
  }
}

export class UnknownAccountError extends RpcError<"UNKNOWN_ACCOUNT"> {
  constructor(accountId: string, at: BlockPoint) {
    super("UNKNOWN_ACCOUNT", { requested_account_id: accountId, ...at }, `account ${accountId} does not exist while viewing`);
  }
}

export class TooLargeContractStateError extends RpcError<"TOO_LARGE_CONTRACT_STATE"> {
  constructor(accountId: string, at: BlockPoint) {
    super(
      "TOO_LARGE_CONTRACT_STATE",
      { contract_account_id: accountId, ...at },
      `State of contract ${accountId} is too large to be viewed`,
    );
  }
}

/**
 * A transaction failed validation. nearcore keeps `info` empty and puts the InvalidTxError in
 * `data`, where near-api-js reads it (`data.TxExecutionError.InvalidTxError`).
 */
export class InvalidTransactionRpcError extends RpcError<"INVALID_TRANSACTION"> {
  constructor(invalidTxError: InvalidTxError) {
    super("INVALID_TRANSACTION", {}, { TxExecutionError: { InvalidTxError: invalidTxError } });
  }
}

export class UnknownTransactionError extends RpcError<"UNKNOWN_TRANSACTION"> {
  constructor(hash: string) {
    super("UNKNOWN_TRANSACTION", { requested_transaction_hash: hash }, `Transaction ${hash} doesn't exist`);
  }
}

/** nearcore puts the whole serialised cause in `data` for this one. */
export class UnknownReceiptError extends RpcError<"UNKNOWN_RECEIPT"> {
  constructor(receiptId: string) {
    const info = { receipt_id: receiptId };
    super("UNKNOWN_RECEIPT", info, { name: "UNKNOWN_RECEIPT", info });
  }
}

/** A receipt too many receipts below its transaction; `data` is the serialised cause, as UNKNOWN_RECEIPT's. */
export class DepthExceededError extends RpcError<"DEPTH_EXCEEDED"> {
  constructor(receiptId: string, limit: number) {
    const info = { receipt_id: receiptId, limit };
    super("DEPTH_EXCEEDED", info, { name: "DEPTH_EXCEEDED", info });
  }
}

/** The wait for a transaction status ran out; HTTP 408 (near-api-js retries it). */
export class TimeoutError extends RpcError<"TIMEOUT_ERROR"> {
  constructor() {
    super("TIMEOUT_ERROR", undefined, "Timeout");
  }
}

/** `validators` / `EXPERIMENTAL_validators_ordered`: no such epoch (or block); nearcore sends no `info`. */
export class UnknownEpochError extends RpcError<"UNKNOWN_EPOCH"> {
  constructor() {
    super("UNKNOWN_EPOCH", undefined, "Unknown Epoch");
  }
}

/** `validators` by a block that does not end its epoch. */
export class ValidatorInfoUnavailableError extends RpcError<"VALIDATOR_INFO_UNAVAILABLE"> {
  constructor() {
    super("VALIDATOR_INFO_UNAVAILABLE", undefined, "Validator info unavailable");
  }
}

export class InvalidShardIdError extends RpcError<"INVALID_SHARD_ID"> {
  constructor(shardId: number) {
    super("INVALID_SHARD_ID", { shard_id: shardId }, `Shard id ${shardId} does not exist`);
  }
}

export class UnknownChunkError extends RpcError<"UNKNOWN_CHUNK"> {
  constructor(chunkHash: string) {
    super("UNKNOWN_CHUNK", { chunk_hash: chunkHash }, `Chunk Missing (unavailable on the node): ChunkHash(\`${chunkHash}\`) \n Cause: Unknown`);
  }
}

/** shardkit_revert with an id that is not (or no longer) a snapshot: shardkit's own cause. */
export class UnknownSnapshotRpcError extends RpcError<"UNKNOWN_SNAPSHOT"> {
  constructor(snapshotId: string, message: string) {
    super("UNKNOWN_SNAPSHOT", { snapshot_id: snapshotId }, message);
  }
}
