/**
 * @shardkit/client/jsonrpc: a typed JSON-RPC client for shardkit and nearcore nodes, generated
 * from the OpenRPC spec, with typed errors per cause, a view_state pager and a transaction
 * builder/signer. Browser-safe: no `node:` imports, no Buffer.
 */
export { createRpcClient } from "../generated/rpc/client.js";
export type { QueryResultByRequestType, RpcClient, RpcMethodErrorCauses, RpcTransport } from "../generated/rpc/client.js";
export type * from "../generated/rpc/types.js";
export {
  rpcErrorCauses,
  type RpcErrorCause,
  type RpcErrorCauseData,
  type RpcErrorCauseInfo,
  type RpcErrorCauseName,
  type RpcErrorName,
  type RpcErrorObject,
} from "../generated/rpc/errors.js";
export * from "../generated/rpc/errorClasses.js";
export { httpTransport, type HttpTransportOptions } from "./httpTransport.js";
export { jsonRpcClient } from "./jsonRpcClient.js";
export {
  RpcHttpError,
  RpcResponseError,
  isMethodError,
  isRpcError,
  type RpcErrorOf,
  type RpcErrorPayload,
  type RpcMethodError,
} from "./RpcResponseError.js";
export { viewStatePages, type ViewStatePagesParams } from "./viewStatePages.js";
export {
  ed25519KeyPair,
  keyPairFromString,
  mlDsa65KeyPair,
  randomEd25519KeyPair,
  secp256k1KeyPair,
  type KeyPair,
  type Signer,
} from "./keys.js";
export * as actions from "./actions.js";
export type { Action, PublicKey } from "./actions.js";
export {
  signTransaction,
  type SignedTransaction,
  type SignedTransactionPayload,
  type Transaction,
  type TransactionFields,
} from "./signTransaction.js";
export { signDelegateAction, type DelegateActionFields } from "./signDelegateAction.js";
export {
  transactionSender,
  type OutcomeStatus,
  type SendAndWaitOptions,
  type TransactionSender,
  type TransactionSenderOptions,
} from "./transactionSender.js";
export { base64ToBytes, bytesToBase64 } from "../encoding/base64.js";
