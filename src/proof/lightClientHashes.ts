import { sha256 } from "@noble/hashes/sha2.js";
import { base58Decode } from "@shardkit/primitives/base58";
import type { BlockHeaderInnerLiteView, ExecutionOutcomeWithIdView, LightClientBlockLiteView, ValidatorStakeView } from "./lightClientTypes.js";
import { combineHash } from "./merklePath.js";

/** Growable little-endian borsh writer (only what these hashes need). */
class Borsh {
  private parts: number[] = [];
  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }
  uint(v: bigint, bytes: number): this {
    if (v < 0n || v >= 1n << BigInt(bytes * 8)) throw new RangeError(`${v} does not fit in u${bytes * 8}`);
    for (let i = 0; i < bytes; i++) this.parts.push(Number((v >> BigInt(8 * i)) & 0xffn));
    return this;
  }
  u32(v: number): this {
    return this.uint(BigInt(v), 4);
  }
  fixed(bytes: Uint8Array): this {
    for (const b of bytes) this.parts.push(b);
    return this;
  }
  vec(bytes: Uint8Array): this {
    return this.u32(bytes.length).fixed(bytes);
  }
  hash(base58: string): this {
    const bytes = base58Decode(base58);
    if (bytes.length !== 32) throw new RangeError(`a hash has 32 bytes, ${base58} has ${bytes.length}`);
    return this.fixed(bytes);
  }
  toBytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

const utf8 = (s: string) => new TextEncoder().encode(s);

function base64Decode(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A decimal u64/u128 from JSON (number or string), checked. */
function integer(v: number | string, what: string): bigint {
  if (typeof v === "number" && !Number.isSafeInteger(v)) throw new RangeError(`${what} ${v} is not an exact integer`);
  if (typeof v === "string" && !/^\d+$/.test(v)) throw new RangeError(`${what} ${JSON.stringify(v)} is not a decimal integer`);
  return BigInt(v);
}

/**
 * The leaf an outcome contributes to its chunk's outcome root (nearcore
 * `ExecutionOutcomeWithIdView::to_hashes` hashed as borsh Vec<CryptoHash>): [id,
 * sha256(borsh PartialExecutionOutcome), sha256(each log)]. A failure's error is not hashed.
 */
export function outcomeLeafHash(o: ExecutionOutcomeWithIdView): Uint8Array {
  const out = o.outcome;
  const partial = new Borsh().u32(out.receipt_ids.length);
  for (const id of out.receipt_ids) partial.hash(id);
  partial.uint(integer(out.gas_burnt, "gas_burnt"), 8).uint(integer(out.tokens_burnt, "tokens_burnt"), 16).vec(utf8(out.executor_id));
  const s = out.status;
  if (s === "Unknown") partial.u8(0);
  else if ("Failure" in s) partial.u8(1);
  else if ("SuccessValue" in s) partial.u8(2).vec(base64Decode(s.SuccessValue));
  else if ("SuccessReceiptId" in s) partial.u8(3).hash(s.SuccessReceiptId);
  else throw new RangeError(`unknown execution status ${JSON.stringify(s)}`);
  const hashes = new Borsh().u32(2 + out.logs.length).hash(o.id).fixed(sha256(partial.toBytes()));
  for (const log of out.logs) hashes.fixed(sha256(utf8(log)));
  return sha256(hashes.toBytes());
}

/** sha256(borsh BlockHeaderInnerLite). */
export function innerLiteHash(l: BlockHeaderInnerLiteView): Uint8Array {
  const timestamp = l.timestamp_nanosec !== undefined ? integer(l.timestamp_nanosec, "timestamp_nanosec") : integer(l.timestamp, "timestamp");
  return sha256(
    new Borsh()
      .uint(integer(l.height, "height"), 8)
      .hash(l.epoch_id)
      .hash(l.next_epoch_id)
      .hash(l.prev_state_root)
      .hash(l.outcome_root)
      .uint(timestamp, 8)
      .hash(l.next_bp_hash)
      .hash(l.block_merkle_root)
      .toBytes(),
  );
}

/** A block's hash from its lite header: sha256(sha256(inner_lite_hash ‖ inner_rest_hash) ‖ prev_hash). */
export function blockHashOfLite(lite: LightClientBlockLiteView): Uint8Array {
  const inner = combineHash(innerLiteHash(lite.inner_lite), base58Decode(lite.inner_rest_hash));
  return combineHash(inner, base58Decode(lite.prev_block_hash));
}

/** borsh of a "ed25519:…" / "secp256k1:…" public key: key type byte ‖ key bytes. */
export function publicKeyBorsh(text: string): Uint8Array {
  const colon = text.indexOf(":");
  const [type, data] = colon < 0 ? ["ed25519", text] : [text.slice(0, colon), text.slice(colon + 1)];
  const bytes = base58Decode(data);
  const tag = type === "ed25519" ? 0 : type === "secp256k1" ? 1 : undefined;
  if (tag === undefined || bytes.length !== (tag === 0 ? 32 : 64)) throw new RangeError(`not a public key: ${text}`);
  return new Borsh().u8(tag).fixed(bytes).toBytes();
}

/** sha256(borsh Vec<ValidatorStake>), which a header names as next_bp_hash. */
export function blockProducersHash(bps: readonly ValidatorStakeView[]): Uint8Array {
  const w = new Borsh().u32(bps.length);
  for (const v of bps) {
    if (v.validator_stake_struct_version !== undefined && v.validator_stake_struct_version !== "V1") {
      throw new RangeError(`unsupported validator stake version ${v.validator_stake_struct_version}`);
    }
    w.u8(0).vec(utf8(v.account_id)).fixed(publicKeyBorsh(v.public_key)).uint(integer(v.stake, "stake"), 16);
  }
  return sha256(w.toBytes());
}

/** The data an approval signs: borsh ApprovalInner::Endorsement(block hash) ‖ u64 LE target height. */
export function endorsementMessage(blockHash: Uint8Array, targetHeight: number): Uint8Array {
  return new Borsh().u8(0).fixed(blockHash).uint(BigInt(targetHeight), 8).toBytes();
}
