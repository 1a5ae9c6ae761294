export * from "../../src/proof/index.js";
export { base58Encode as base58EncodeForTest } from "../../src/chain/primitives/base58.js";
