export * from "../../src/proof/index.js";
export { base58Encode as base58EncodeForTest } from "@shardkit/primitives/base58";
