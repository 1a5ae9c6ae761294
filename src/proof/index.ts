/** Browser-safe proof verification (no node: imports; sha256 from @noble/hashes, ed25519 from @noble/curves). */
export { verifyStateProof, StateProofError } from "./verifyStateProof.js";
export type {
  StateProofEntry,
  StateProofErrorCode,
  VerifyStateProofParameters,
  VerifyStateProofReturnType,
} from "./verifyStateProof.js";
export { decodeTrieNode, TrieNodeDecodeError, type DecodedTrieNode } from "./decodeTrieNode.js";
export { TrieNodeTag, TRIE_HASH_LEN } from "./trieNodeFormat.js";
export { computeRootFromPath, verifyMerklePath, combineHash, type MerklePathItem } from "./merklePath.js";
export { outcomeLeafHash, innerLiteHash, blockHashOfLite, blockProducersHash, endorsementMessage } from "./lightClientHashes.js";
export { verifyOutcomeProof, verifyBlockProof } from "./verifyOutcomeProof.js";
export type { VerifyOutcomeProofParameters, VerifyBlockProofParameters } from "./verifyOutcomeProof.js";
export { verifyLightClientBlock, type VerifyLightClientBlockParameters } from "./verifyLightClientBlock.js";
export { LightClient, type LightClientOptions, type NextLightClientBlock } from "./LightClient.js";
export { LightClientProofError, type LightClientProofErrorCode } from "./LightClientProofError.js";
export type * from "./lightClientTypes.js";
