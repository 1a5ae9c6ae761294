/** The transaction codec: borsh (de)serialization, hashing, signatures and JSON views. */
export * from "@shardkit/primitives/accessKeyWithGasKeys";
export * from "@shardkit/primitives/action";
export { decodeAction, encodeAction } from "@shardkit/primitives/actionCodec";
export * from "./actionJson.js";
export * from "./actionView.js";
export * from "./delegateActionHash.js";
export * from "@shardkit/primitives/secp256k1";
export * from "@shardkit/primitives/signature";
export * from "./signedTransactionView.js";
export * from "./signTransaction.js";
export * from "@shardkit/primitives/transaction";
export * from "./transactionCodec.js";
export { TransactionDecodeError } from "@shardkit/primitives/TransactionDecodeError";
export type { TransactionNonce } from "@shardkit/primitives/transactionNonce";
export * from "./verifySignature.js";
