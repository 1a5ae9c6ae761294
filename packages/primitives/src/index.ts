// @shardkit/primitives: the browser-safe codecs and crypto the chain, the proof verifiers and the
// client share (no `node:` imports, no Buffer). Each module is also its own subpath export.
export * from "./base58.js";
export * from "./borshReader.js";
export * from "./borshWriter.js";
export * from "./accountId.js";
export * from "./publicKey.js";
export * from "./publicKeyHandle.js";
export * from "./signature.js";
export * from "./writePublicKey.js";
export * from "./accessKey.js";
export * from "./accessKeyWithGasKeys.js";
export * from "./secp256k1.js";
export * from "./mlDsa65.js";
export * from "./action.js";
export * from "./actionCodec.js";
export * from "./deterministicAccountId.js";
export * from "./delegateActionMessage.js";
export * from "./transactionNonce.js";
export * from "./transaction.js";
export * from "./transactionBorsh.js";
export * from "./TxReader.js";
export * from "./TransactionDecodeError.js";
export * from "./ShardkitError.js";
export * from "./isJsonObject.js";
export * from "./errorMessage.js";
