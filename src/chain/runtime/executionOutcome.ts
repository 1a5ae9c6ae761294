import { base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../primitives/base64.js";
import { sha256, sha256Utf8 } from "../primitives/sha256.js";
import type { TxExecutionErrorJson } from "./actionError.js";
import { at } from "../must.js";
import { toAccountContractView, type AccountContract, type AccountContractView } from "./accountContract.js";

/** How a transaction or receipt ended (nearcore `ExecutionStatus`). */
export type ExecutionStatus =
  | { readonly kind: "SuccessValue"; readonly value: Uint8Array }
  | { readonly kind: "SuccessReceiptId"; readonly receiptId: Uint8Array }
  | { readonly kind: "Failure"; readonly error: TxExecutionErrorJson };

/**
 * nearcore `ExecutionOutcome` of a transaction (metadata V1) or a receipt (metadata V4 since
 * protocol 85, ExecutionMetadataV4; records written before that keep V3).
 */
export interface ExecutionOutcome {
  /** Transaction hash or receipt id. */
  readonly id: Uint8Array;
  readonly logs: readonly string[];
  /** New action receipts (data receipts are not listed); a refund, when any, comes last. */
  readonly receiptIds: readonly Uint8Array[];
  readonly gasBurnt: bigint;
  readonly tokensBurnt: bigint;
  readonly executorId: string;
  readonly status: ExecutionStatus;
  readonly metadataVersion: 1 | 3 | 4;
  /** Receipts: the VM's gas profile (empty for receipts without function calls). */
  readonly gasProfile?: readonly GasProfileEntry[];
  /** Metadata V4: one entry per action of the receipt, the receiver's contract before it ran. */
  readonly contracts?: readonly AccountContract[];
}

export type ExecutionMetadataView =
  | { version: 1; gas_profile: null }
  | { version: 3; gas_profile: GasProfileEntry[] }
  | { version: 4; gas_profile: GasProfileEntry[]; contracts: AccountContractView[] };

export type ExecutionStatusView =
  | "Unknown"
  | { Failure: TxExecutionErrorJson }
  | { SuccessValue: string }
  | { SuccessReceiptId: string };

export interface ExecutionOutcomeView {
  logs: string[];
  receipt_ids: string[];
  gas_burnt: number;
  tokens_burnt: string;
  executor_id: string;
  status: ExecutionStatusView;
  metadata: ExecutionMetadataView;
}

/** A `gas_profile` item: gas a function call burnt on one action or host cost (nearcore ProfileDataV3). */
export interface GasProfileEntry {
  cost_category: "ACTION_COST" | "WASM_HOST_COST";
  cost: string;
  gas_used: string;
}

export interface MerklePathItem {
  hash: string;
  direction: "Left" | "Right";
}

export interface ExecutionOutcomeWithIdView {
  proof: MerklePathItem[];
  block_hash: string;
  id: string;
  outcome: ExecutionOutcomeView;
}

export function toExecutionStatusView(s: ExecutionStatus): ExecutionStatusView {
  switch (s.kind) {
    case "SuccessValue":
      return { SuccessValue: base64Encode(s.value) };
    case "SuccessReceiptId":
      return { SuccessReceiptId: base58Encode(s.receiptId) };
    case "Failure":
      return { Failure: s.error };
  }
}

export function toExecutionOutcomeView(o: ExecutionOutcome): ExecutionOutcomeView {
  return {
    logs: [...o.logs],
    receipt_ids: o.receiptIds.map((id) => base58Encode(id)),
    gas_burnt: Number(o.gasBurnt),
    tokens_burnt: o.tokensBurnt.toString(),
    executor_id: o.executorId,
    status: toExecutionStatusView(o.status),
    metadata: toExecutionMetadataView(o),
  };
}

function toExecutionMetadataView(o: ExecutionOutcome): ExecutionMetadataView {
  if (o.metadataVersion === 1) return { version: 1, gas_profile: null };
  const gasProfile = [...(o.gasProfile ?? [])];
  if (o.metadataVersion === 3) return { version: 3, gas_profile: gasProfile };
  return { version: 4, gas_profile: gasProfile, contracts: (o.contracts ?? []).map(toAccountContractView) };
}

/**
 * The leaf an outcome contributes to its chunk's outcome root, as nearcore hashes it:
 * sha256(borsh(Vec<CryptoHash>)) of [id, sha256(borsh(PartialExecutionOutcome)), sha256(log)...].
 * PartialExecutionOutcome is {receipt_ids, gas_burnt u64, tokens_burnt u128, executor_id,
 * status} with the status tagged Unknown 0, Failure 1 (no error: light clients cannot parse
 * it), SuccessValue 2 (Vec<u8>), SuccessReceiptId 3 (hash).
 */
export function outcomeHash(o: ExecutionOutcome): Uint8Array {
  // One exact-size buffer per hash: this runs for every outcome of every block.
  const executor = UTF8.encode(o.executorId);
  const s = o.status;
  const statusLen = s.kind === "Failure" ? 1 : s.kind === "SuccessValue" ? 5 + s.value.length : 33;
  const partial = new Uint8Array(4 + 32 * o.receiptIds.length + 8 + 16 + 4 + executor.length + statusLen);
  const view = new DataView(partial.buffer);
  let pos = 0;
  view.setUint32(pos, o.receiptIds.length, true);
  pos += 4;
  for (const id of o.receiptIds) {
    partial.set(id, pos);
    pos += 32;
  }
  view.setBigUint64(pos, o.gasBurnt, true);
  view.setBigUint64(pos + 8, o.tokensBurnt & U64_MASK, true);
  view.setBigUint64(pos + 16, o.tokensBurnt >> 64n, true);
  pos += 24;
  view.setUint32(pos, executor.length, true);
  partial.set(executor, pos + 4);
  pos += 4 + executor.length;
  if (s.kind === "Failure") partial[pos] = 1;
  else if (s.kind === "SuccessValue") {
    partial[pos] = 2;
    view.setUint32(pos + 1, s.value.length, true);
    partial.set(s.value, pos + 5);
  } else {
    partial[pos] = 3;
    partial.set(s.receiptId, pos + 1);
  }
  const hashes = new Uint8Array(4 + 32 * (2 + o.logs.length));
  new DataView(hashes.buffer).setUint32(0, 2 + o.logs.length, true);
  hashes.set(o.id, 4);
  hashes.set(sha256(partial), 36);
  for (let i = 0; i < o.logs.length; i++) hashes.set(sha256Utf8(at(o.logs, i)), 68 + 32 * i);
  return sha256(hashes);
}

const UTF8 = new TextEncoder();
const U64_MASK = (1n << 64n) - 1n;
