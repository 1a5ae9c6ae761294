import { BorshWriter } from "@shardkit/primitives/borshWriter";
import type { CryptoHash } from "../primitives/cryptoHash.js";
import { sha256 } from "../primitives/sha256.js";
import { combineHash } from "./merkle.js";

/** nearcore `BlockHeaderInnerLite`: the part of a header light clients see in full. */
export interface InnerLite {
  readonly height: number;
  readonly epochId: CryptoHash;
  readonly nextEpochId: CryptoHash;
  readonly prevStateRoot: CryptoHash;
  readonly outcomeRoot: CryptoHash;
  readonly timestampNs: bigint;
  readonly nextBpHash: CryptoHash;
  readonly blockMerkleRoot: CryptoHash;
}

/** borsh of inner_lite, in nearcore's field order. */
export function innerLiteBytes(l: InnerLite): Uint8Array {
  return new BorshWriter()
    .u64(l.height)
    .fixed(l.epochId)
    .fixed(l.nextEpochId)
    .fixed(l.prevStateRoot)
    .fixed(l.outcomeRoot)
    .u64(l.timestampNs)
    .fixed(l.nextBpHash)
    .fixed(l.blockMerkleRoot)
    .toBytes();
}

/** nearcore `compute_inner_hash`: combine(sha256(inner_lite), sha256(inner_rest)). */
export function innerHash(innerLiteHash: CryptoHash, innerRestHash: CryptoHash): CryptoHash {
  return combineHash(innerLiteHash, innerRestHash);
}

/** nearcore block hash: combine(inner hash, prev hash). */
export function blockHashFromParts(innerLiteHash: CryptoHash, innerRestHash: CryptoHash, prevHash: CryptoHash): CryptoHash {
  return combineHash(innerHash(innerLiteHash, innerRestHash), prevHash);
}

/** sha256 of a header's inner_lite borsh. */
export function innerLiteHash(l: InnerLite): CryptoHash {
  return sha256(innerLiteBytes(l));
}
