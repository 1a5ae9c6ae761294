import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import type { BorshReader } from "@shardkit/primitives/borshReader";
import type { BorshWriter } from "@shardkit/primitives/borshWriter";
import type { KeyStateChanges, RawStateChange, StateChangeCause } from "../../runtime/StateChangeCause.js";
import type { SortedChanges } from "../applyChanges.js";
import type { StoredBlock } from "../ChainStore.js";
import { ProfileTable, readChunkResult, writeChunkResult } from "./chunkResultCodec.js";
import { isFormat3Block } from "./format3Shapes.js";
import { RecordKind, readLatin1, readOption, readSafeU64, readVec, writeLatin1, writeOption, writeVec, type RecordCodec } from "./recordEnvelope.js";

/*
 * A block record, layout version 1 (every Vec is per shard index where it says so):
 *   height u64 ‖ hash [32] ‖ timestamp_ns u64
 *   ‖ state_changes Vec<Vec<{ key Vec<u8>, value Option<Vec<u8>> }>>            (per shard)
 *   ‖ caused_changes Vec<Vec<{ key Vec<u8>, changes Vec<{ cause, value Option<Vec<u8>> }> }>>  (per shard)
 *   ‖ gas_profiles Vec<profile> ‖ chunk_results Vec<chunk result (chunkResultCodec.ts)>  (per shard)
 *   ‖ state_roots Vec<[32]> ‖ total_supply u128 ‖ outcome_roots Vec<[32]> ‖ chunk_hashes Vec<[32]>
 *   ‖ epoch_proposals Vec<{ account_id String, stake u128 }>
 *   ‖ signatures { approval Vec<u8>, block Vec<u8>, chunks Vec<Vec<u8>> }
 * cause: u8 tag in nearcore's StateChangeCause order, with the 32-byte hash for the tags that carry one.
 */

const CAUSES = [
  "not_writable_to_disk",
  "initial_state",
  "transaction_processing",
  "action_receipt_processing_started",
  "action_receipt_gas_reward",
  "receipt_processing",
  "postponed_receipt",
  "updated_delayed_receipts",
  "validator_accounts_update",
  "migration",
] as const;

function writeCause(w: BorshWriter, cause: StateChangeCause): void {
  w.u8(CAUSES.indexOf(cause.type));
  if ("txHash" in cause) w.fixed(cause.txHash);
  else if ("receiptHash" in cause) w.fixed(cause.receiptHash);
}

function readCause(r: BorshReader): StateChangeCause {
  const type = CAUSES[r.u8()];
  switch (type) {
    case undefined:
      throw new RangeError("unknown state change cause");
    case "transaction_processing":
      return { type, txHash: r.fixed(32) };
    case "action_receipt_processing_started":
    case "action_receipt_gas_reward":
    case "receipt_processing":
    case "postponed_receipt":
      return { type, receiptHash: r.fixed(32) };
    default:
      return { type };
  }
}

function writeChanges(w: BorshWriter, changes: SortedChanges): void {
  w.u32(changes.keys.length);
  changes.keys.forEach((key, i) => {
    writeLatin1(w, key);
    writeOption(w, changes.values[i], writeLatin1);
  });
}

function readChanges(r: BorshReader): SortedChanges {
  const n = r.u32();
  const keys: string[] = [];
  const values: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    keys.push(readLatin1(r));
    values.push(readOption(r, readLatin1) ?? null);
  }
  return { keys, values };
}

function writeKeyChanges(w: BorshWriter, k: KeyStateChanges): void {
  writeLatin1(w, k.key);
  writeVec(w, k.changes, (w, c) => {
    writeCause(w, c.cause);
    writeOption(w, c.value, writeLatin1);
  });
}

function readKeyChanges(r: BorshReader): KeyStateChanges {
  const key = readLatin1(r);
  const changes = readVec(r, (r): RawStateChange => ({ cause: readCause(r), value: readOption(r, readLatin1) ?? null }));
  return { key, changes };
}

const hash32 = (w: BorshWriter, base58: string) => {
  const bytes = base58Decode(base58);
  if (bytes.length !== 32) throw new RangeError(`not a 32-byte hash: ${base58}`);
  w.fixed(bytes);
};

export const storedBlockCodec: RecordCodec<StoredBlock> = {
  kind: RecordKind.BLOCK,
  version: 1,
  write(w, b) {
    w.u64(b.height);
    hash32(w, b.hash);
    w.u64(b.timestampNs);
    writeVec(w, b.stateChanges, writeChanges);
    writeVec(w, b.causedChanges, (w, shard) => writeVec(w, shard, writeKeyChanges));
    const profiles = ProfileTable.of(b.chunkResults);
    profiles.write(w);
    writeVec(w, b.chunkResults, (w, c) => writeChunkResult(w, c, profiles));
    writeVec(w, b.stateRoots, (w, root) => w.fixed(root));
    w.u128(b.totalSupply);
    writeVec(w, b.outcomeRoots, (w, root) => w.fixed(root));
    writeVec(w, b.chunkHashes, hash32);
    writeVec(w, b.epochProposals, (w, [accountId, stake]) => w.string(accountId).u128(stake));
    w.bytes(b.signatures.approval).bytes(b.signatures.block);
    writeVec(w, b.signatures.chunks, (w, s) => w.bytes(s));
  },
  read(r) {
    const height = readSafeU64(r);
    const hash = base58Encode(r.fixed(32));
    const timestampNs = r.u64();
    const stateChanges = readVec(r, readChanges);
    const causedChanges = readVec(r, (r) => readVec(r, readKeyChanges));
    const profiles = ProfileTable.read(r);
    return {
      height,
      hash,
      timestampNs,
      stateChanges,
      causedChanges,
      chunkResults: readVec(r, (r) => readChunkResult(r, profiles)),
      stateRoots: readVec(r, (r) => r.fixed(32)),
      totalSupply: r.u128(),
      outcomeRoots: readVec(r, (r) => r.fixed(32)),
      chunkHashes: readVec(r, (r) => base58Encode(r.fixed(32))),
      epochProposals: readVec(r, (r): [string, bigint] => [r.string(), r.u128()]),
      signatures: { approval: r.bytesVec(), block: r.bytesVec(), chunks: readVec(r, (r) => r.bytesVec()) },
    };
  },  isFormat3: isFormat3Block,
};
