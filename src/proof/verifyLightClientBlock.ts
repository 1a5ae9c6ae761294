import { ed25519 } from "@noble/curves/ed25519";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { blockHashOfLite, blockProducersHash, endorsementMessage, publicKeyBorsh } from "./lightClientHashes.js";
import type { LightClientBlockLiteView, LightClientBlockView, ValidatorStakeView } from "./lightClientTypes.js";
import { asInvalidInput, LightClientProofError } from "./LightClientProofError.js";
import { bytesEqual, combineHash } from "./merklePath.js";

export interface VerifyLightClientBlockParameters {
  /** The light client's current head. */
  readonly last: LightClientBlockLiteView;
  /** Block producers of the new block's epoch, in the order its approvals list them. */
  readonly blockProducers: readonly ValidatorStakeView[];
  /** A `next_light_client_block` result. */
  readonly block: LightClientBlockView;
}

/**
 * The nomicon light-client rule for accepting `block` after `last`: a greater height; an
 * epoch that is last's or the next one (the next one requires `next_bps`); approvals on the
 * block after next, each a valid ed25519 signature of Endorsement(next block hash) at height
 * + 2 by the producer at that index, from more than 2/3 of the epoch's stake; and `next_bps`
 * hashing to `inner_lite.next_bp_hash`. Returns the block as the new head (lite view) with its
 * hash. Throws LightClientProofError.
 */
export function verifyLightClientBlock(params: VerifyLightClientBlockParameters): { head: LightClientBlockLiteView; hash: string } {
  const { last, block, blockProducers } = params;
  return asInvalidInput(() => {
    const lite = block.inner_lite;
    if (lite.height <= last.inner_lite.height) {
      throw new LightClientProofError("NOT_NEWER", `block height ${lite.height} is not above the head's ${last.inner_lite.height}`);
    }
    const nextEpoch = lite.epoch_id === last.inner_lite.next_epoch_id;
    if (lite.epoch_id !== last.inner_lite.epoch_id && !nextEpoch) {
      throw new LightClientProofError("WRONG_EPOCH", `block epoch ${lite.epoch_id} is neither the head's epoch nor the next one`);
    }
    if (nextEpoch && (block.next_bps === undefined || block.next_bps === null)) {
      throw new LightClientProofError("MISSING_NEXT_BPS", "a block of the next epoch must list next_bps");
    }
    const head: LightClientBlockLiteView = { prev_block_hash: block.prev_block_hash, inner_rest_hash: block.inner_rest_hash, inner_lite: lite };
    const hash = blockHashOfLite(head);
    const nextHash = combineHash(base58Decode(block.next_block_inner_hash), hash);
    const message = endorsementMessage(nextHash, lite.height + 2);
    if (block.approvals_after_next.length < blockProducers.length) {
      throw new LightClientProofError("NOT_ENOUGH_APPROVALS", `${block.approvals_after_next.length} approvals for ${blockProducers.length} block producers`);
    }
    let total = 0n;
    let approved = 0n;
    blockProducers.forEach((bp, i) => {
      const stake = BigInt(bp.stake);
      total += stake;
      const approval = block.approvals_after_next[i];
      if (approval === null || approval === undefined) return;
      const key = publicKeyBorsh(bp.public_key);
      const [type, sig] = approval.split(":", 2);
      if (type !== "ed25519" || key[0] !== 0 || sig === undefined) {
        throw new LightClientProofError("BAD_SIGNATURE", `approval ${i} is not an ed25519 signature by an ed25519 key`);
      }
      if (!ed25519.verify(base58Decode(sig), message, key.subarray(1))) {
        throw new LightClientProofError("BAD_SIGNATURE", `approval ${i} by ${bp.account_id} does not sign the block after next`);
      }
      approved += stake;
    });
    if (approved * 3n <= total * 2n) {
      throw new LightClientProofError("NOT_ENOUGH_APPROVALS", `approved stake ${approved} is not above 2/3 of ${total}`);
    }
    if (block.next_bps !== undefined && block.next_bps !== null) {
      if (!bytesEqual(blockProducersHash(block.next_bps), base58Decode(lite.next_bp_hash))) {
        throw new LightClientProofError("NEXT_BPS_MISMATCH", "next_bps does not hash to inner_lite.next_bp_hash");
      }
    }
    return { head, hash: base58Encode(hash) };
  });
}
