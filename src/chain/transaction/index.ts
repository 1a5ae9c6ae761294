/** The transaction codec: borsh (de)serialization, hashing, signatures and JSON views. */
export * from "./accessKeyWithGasKeys.js";
export * from "./action.js";
export { decodeAction, encodeAction } from "./actionCodec.js";
export * from "./actionJson.js";
export * from "./actionView.js";
export * from "./delegateActionHash.js";
export * from "./secp256k1.js";
export * from "./signature.js";
export * from "./signedTransactionView.js";
export * from "./signTransaction.js";
export * from "./transaction.js";
export * from "./transactionCodec.js";
export { TransactionDecodeError } from "./TransactionDecodeError.js";
export type { TransactionNonce } from "./transactionNonce.js";
export * from "./verifySignature.js";
