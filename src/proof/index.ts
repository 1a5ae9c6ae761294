/** Browser-safe state proof verification (no node: imports; sha256 from @noble/hashes). */
export { verifyStateProof, StateProofError } from "./verifyStateProof.js";
export type {
  StateProofEntry,
  StateProofErrorCode,
  VerifyStateProofParameters,
  VerifyStateProofReturnType,
} from "./verifyStateProof.js";
export { decodeTrieNode, TrieNodeDecodeError, type DecodedTrieNode } from "./decodeTrieNode.js";
export { TrieNodeTag, TRIE_HASH_LEN } from "./trieNodeFormat.js";
