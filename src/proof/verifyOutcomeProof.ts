import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { blockHashOfLite, outcomeLeafHash } from "./lightClientHashes.js";
import type { LightClientBlockLiteView, LightClientExecutionProofView, MerklePathItemView } from "./lightClientTypes.js";
import { asInvalidInput, LightClientProofError } from "./LightClientProofError.js";
import { bytesEqual, computeRootFromPath, verifyMerklePath } from "./merklePath.js";

export interface VerifyBlockProofParameters {
  /** `block_header_lite` of the block to prove. */
  readonly blockHeaderLite: LightClientBlockLiteView;
  /** `block_proof`: its path in the head's block merkle tree. */
  readonly blockProof: readonly MerklePathItemView[];
  /** `block_merkle_root` of the trusted light-client head (32 bytes, or base58). */
  readonly blockMerkleRoot: Uint8Array | string;
}

const rootBytes = (root: Uint8Array | string) => (typeof root === "string" ? base58Decode(root) : root);

/**
 * Checks that a block is an ancestor of the light-client head: the hash recomputed from its
 * lite header, folded along `block_proof`, must give the head's `block_merkle_root`.
 * Returns the proven block's hash (base58).
 */
export function verifyBlockProof(params: VerifyBlockProofParameters): { blockHash: string } {
  return asInvalidInput(() => {
    const blockHash = blockHashOfLite(params.blockHeaderLite);
    const root = computeRootFromPath(params.blockProof, blockHash);
    if (!bytesEqual(root, rootBytes(params.blockMerkleRoot))) {
      throw new LightClientProofError(
        "BLOCK_MERKLE_ROOT_MISMATCH",
        `block ${base58Encode(blockHash)} folds to ${base58Encode(root)}, not the head's block_merkle_root`,
      );
    }
    return { blockHash: base58Encode(blockHash) };
  });
}

export interface VerifyOutcomeProofParameters {
  /** A `light_client_proof` result. */
  readonly proof: LightClientExecutionProofView;
  /** `block_merkle_root` of the trusted light-client head the proof was asked against. */
  readonly blockMerkleRoot: Uint8Array | string;
}

/**
 * Verifies a `light_client_proof` result the way nearcore's light clients do: the outcome's
 * leaf hash folded along `outcome_proof.proof` gives its chunk's outcome root; that root
 * (hashed as a merklize leaf) folded along `outcome_root_proof` must equal the block's
 * `inner_lite.outcome_root`; and the block must prove into the head (see verifyBlockProof).
 * Throws LightClientProofError; returns the hash of the block carrying the outcome root.
 */
export function verifyOutcomeProof(params: VerifyOutcomeProofParameters): { blockHash: string; chunkOutcomeRoot: string } {
  const { proof } = params;
  const chunkOutcomeRoot = asInvalidInput(() => {
    const chunkRoot = computeRootFromPath(proof.outcome_proof.proof, outcomeLeafHash(proof.outcome_proof));
    const blockOutcomeRoot = base58Decode(proof.block_header_lite.inner_lite.outcome_root);
    if (!verifyMerklePath(blockOutcomeRoot, proof.outcome_root_proof, chunkRoot)) {
      throw new LightClientProofError(
        "OUTCOME_ROOT_MISMATCH",
        `outcome ${proof.outcome_proof.id} does not fold to the block's outcome_root ${proof.block_header_lite.inner_lite.outcome_root}`,
      );
    }
    return base58Encode(chunkRoot);
  });
  const { blockHash } = verifyBlockProof({ blockHeaderLite: proof.block_header_lite, blockProof: proof.block_proof, blockMerkleRoot: params.blockMerkleRoot });
  return { blockHash, chunkOutcomeRoot };
}
