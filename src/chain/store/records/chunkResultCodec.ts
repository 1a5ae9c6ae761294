import type { BorshReader } from "@shardkit/primitives/borshReader";
import type { BorshWriter } from "@shardkit/primitives/borshWriter";
import type { ChunkResult } from "../../runtime/applyChunk.js";
import type { AccountContract } from "../../runtime/accountContract.js";
import type { ExecutionOutcome, ExecutionStatus, GasProfileEntry } from "../../runtime/executionOutcome.js";
import type { InvalidTxErrorJson } from "../../runtime/invalidTxError.js";
import { decodeReceipt, encodeReceipt } from "../../runtime/receiptCodec.js";
import { decodeSignedTransaction, encodeSignedTransaction } from "../../transaction/index.js";
import { readJson, readOption, readVec, writeJson, writeOption, writeVec } from "./recordEnvelope.js";

/*
 * What a chunk did, as a block record keeps it (layout version 1):
 *   included Vec<{ signed_tx Vec<u8> (nearcore SignedTransaction borsh), outcome }>
 *   dropped Vec<{ signed_tx Vec<u8>, error String (InvalidTxError JSON, nearcore's wire form) }>
 *   receipt_outcomes Vec<outcome>
 *   created Vec<Vec<u8> (ReceiptV0 borsh, runtime/receiptCodec.ts)>   created_by Vec<[32]>
 *   outgoing Vec<Vec<u8> (ReceiptV0)>   gas_used u64   balance_burnt u128
 *   proposals Vec<{ account_id String, public_key String, stake u128 }>   delayed_receipts u32
 * outcome: id [32] ‖ logs Vec<String> ‖ receipt_ids Vec<[32]> ‖ gas_burnt u64 ‖ tokens_burnt u128
 *   ‖ executor_id String ‖ status enum { 0 SuccessValue(Vec<u8>), 1 SuccessReceiptId([32]),
 *   2 Failure(String: TxExecutionError JSON) } ‖ metadata_version u8 (1, 3 or 4)
 *   ‖ gas_profile Option<u32>: an index into the record's profile table
 *   ‖ (version 4 only) contracts Vec<enum { 0 None, 1 Local([32]), 2 Global([32]),
 *   3 GlobalByAccount(String) }> (nearcore AccountContract's borsh)
 * (outgoing receipts are written as enum { 0 Created(u32 index into created), 1 Receipt(Vec<u8>) }:
 * nearly every outgoing receipt is one the chunk created; many calls share one gas profile.)
 * profile: Vec<{ category u8 (0 ACTION_COST, 1 WASM_HOST_COST), cost String, gas_used u64 }>
 */

/** What a record writes once and its outcomes refer to by index: the distinct gas profiles. */
export class ProfileTable {
  readonly profiles: (readonly GasProfileEntry[])[] = [];
  private readonly index = new Map<readonly GasProfileEntry[], number>();

  /** Collects the profiles of every outcome of these chunks, each distinct array once. */
  static of(chunks: readonly ChunkResult[]): ProfileTable {
    const table = new ProfileTable();
    const add = (o: ExecutionOutcome) => {
      if (o.gasProfile === undefined || table.index.has(o.gasProfile)) return;
      table.index.set(o.gasProfile, table.profiles.length);
      table.profiles.push(o.gasProfile);
    };
    for (const c of chunks) {
      for (const { outcome } of c.included) add(outcome);
      for (const o of c.receiptOutcomes) add(o);
    }
    return table;
  }

  indexOf(profile: readonly GasProfileEntry[]): number {
    return this.index.get(profile)!;
  }

  write(w: BorshWriter): void {
    writeVec(w, this.profiles, (w, profile) => writeVec(w, profile, writeProfileEntry));
  }

  static read(r: BorshReader): readonly (readonly GasProfileEntry[])[] {
    return readVec(r, (r) => readVec(r, readProfileEntry));
  }
}

const STATUS = { SuccessValue: 0, SuccessReceiptId: 1, Failure: 2 } as const;
const CATEGORIES = ["ACTION_COST", "WASM_HOST_COST"] as const;

function writeStatus(w: BorshWriter, s: ExecutionStatus): void {
  if (s.kind === "SuccessValue") w.u8(STATUS.SuccessValue).bytes(s.value);
  else if (s.kind === "SuccessReceiptId") w.u8(STATUS.SuccessReceiptId).fixed(s.receiptId);
  else {
    w.u8(STATUS.Failure);
    writeJson(w, s.error);
  }
}

function readStatus(r: BorshReader): ExecutionStatus {
  const tag = r.u8();
  if (tag === STATUS.SuccessValue) return { kind: "SuccessValue", value: r.bytesVec() };
  if (tag === STATUS.SuccessReceiptId) return { kind: "SuccessReceiptId", receiptId: r.fixed(32) };
  if (tag === STATUS.Failure) return { kind: "Failure", error: readJson(r) };
  throw new RangeError(`unknown execution status tag ${tag}`);
}

function writeProfileEntry(w: BorshWriter, e: GasProfileEntry): void {
  w.u8(CATEGORIES.indexOf(e.cost_category)).string(e.cost).u64(BigInt(e.gas_used));
}

function readProfileEntry(r: BorshReader): GasProfileEntry {
  const category = CATEGORIES[r.u8()];
  if (category === undefined) throw new RangeError("unknown gas profile category");
  return { cost_category: category, cost: r.string(), gas_used: r.u64().toString() };
}

export function writeOutcome(w: BorshWriter, o: ExecutionOutcome, profiles: ProfileTable): void {
  w.fixed(o.id);
  writeVec(w, o.logs, (w, log) => w.string(log));
  writeVec(w, o.receiptIds, (w, id) => w.fixed(id));
  w.u64(o.gasBurnt).u128(o.tokensBurnt).string(o.executorId);
  writeStatus(w, o.status);
  w.u8(o.metadataVersion);
  writeOption(w, o.gasProfile, (w, profile) => w.u32(profiles.indexOf(profile)));
  if (o.metadataVersion === 4) writeVec(w, o.contracts ?? [], writeAccountContract);
}

const CONTRACT = { None: 0, Local: 1, Global: 2, GlobalByAccount: 3 } as const;

function writeAccountContract(w: BorshWriter, c: AccountContract): void {
  if (c === null) w.u8(CONTRACT.None);
  else if (c.kind === "GlobalByAccount") w.u8(CONTRACT.GlobalByAccount).string(c.accountId);
  else w.u8(CONTRACT[c.kind]).fixed(c.codeHash);
}

function readAccountContract(r: BorshReader): AccountContract {
  const tag = r.u8();
  if (tag === CONTRACT.None) return null;
  if (tag === CONTRACT.Local) return { kind: "Local", codeHash: r.fixed(32) };
  if (tag === CONTRACT.Global) return { kind: "Global", codeHash: r.fixed(32) };
  if (tag === CONTRACT.GlobalByAccount) return { kind: "GlobalByAccount", accountId: r.string() };
  throw new RangeError(`unknown account contract tag ${tag}`);
}

export function readOutcome(r: BorshReader, profiles: readonly (readonly GasProfileEntry[])[]): ExecutionOutcome {
  const id = r.fixed(32);
  const logs = readVec(r, (r) => r.string());
  const receiptIds = readVec(r, (r) => r.fixed(32));
  const gasBurnt = r.u64();
  const tokensBurnt = r.u128();
  const executorId = r.string();
  const status = readStatus(r);
  const metadataVersion = r.u8();
  if (metadataVersion !== 1 && metadataVersion !== 3 && metadataVersion !== 4) {
    throw new RangeError(`unknown outcome metadata version ${metadataVersion}`);
  }
  const gasProfile = readOption(r, (r) => {
    const profile = profiles[r.u32()];
    if (profile === undefined) throw new RangeError("gas profile index out of range");
    return profile;
  });
  const contracts = metadataVersion === 4 ? readVec(r, readAccountContract) : undefined;
  return {
    id,
    logs,
    receiptIds,
    gasBurnt,
    tokensBurnt,
    executorId,
    status,
    metadataVersion,
    ...(gasProfile !== undefined && { gasProfile }),
    ...(contracts !== undefined && { contracts }),
  };
}

export function writeChunkResult(w: BorshWriter, c: ChunkResult, profiles: ProfileTable): void {
  writeVec(w, c.included, (w, { stx, outcome }) => {
    w.bytes(encodeSignedTransaction(stx));
    writeOutcome(w, outcome, profiles);
  });
  writeVec(w, c.dropped, (w, { stx, error }) => {
    w.bytes(encodeSignedTransaction(stx));
    writeJson(w, error);
  });
  writeVec(w, c.receiptOutcomes, (w, o) => writeOutcome(w, o, profiles));
  writeVec(w, c.created, (w, receipt) => w.bytes(encodeReceipt(receipt)));
  writeVec(w, c.createdBy, (w, id) => w.fixed(id));
  const createdAt = new Map(c.created.map((receipt, i) => [receipt, i]));
  writeVec(w, c.outgoing, (w, receipt) => {
    const i = createdAt.get(receipt);
    if (i !== undefined) w.u8(0).u32(i);
    else w.u8(1).bytes(encodeReceipt(receipt));
  });
  w.u64(c.gasUsed).u128(c.balanceBurnt);
  writeVec(w, c.proposals, (w, p) => w.string(p.accountId).string(p.publicKey).u128(p.stake));
  w.u32(c.delayedReceipts);
}

export function readChunkResult(r: BorshReader, profiles: readonly (readonly GasProfileEntry[])[]): ChunkResult {
  const included = readVec(r, (r) => ({ stx: decodeSignedTransaction(r.bytesVec()), outcome: readOutcome(r, profiles) }));
  const dropped = readVec(r, (r) => ({ stx: decodeSignedTransaction(r.bytesVec()), error: readJson<InvalidTxErrorJson>(r) }));
  const receiptOutcomes = readVec(r, (r) => readOutcome(r, profiles));
  const created = readVec(r, (r) => decodeReceipt(r.bytesVec()));
  const createdBy = readVec(r, (r) => r.fixed(32));
  const outgoing = readVec(r, (r) => {
    const tag = r.u8();
    if (tag === 1) return decodeReceipt(r.bytesVec());
    const receipt = tag === 0 ? created[r.u32()] : undefined;
    if (receipt === undefined) throw new RangeError("bad outgoing receipt reference");
    return receipt;
  });
  return {
    included,
    dropped,
    receiptOutcomes,
    created,
    createdBy,
    outgoing,
    gasUsed: r.u64(),
    balanceBurnt: r.u128(),
    proposals: readVec(r, (r) => ({ accountId: r.string(), publicKey: r.string(), stake: r.u128() })),
    delayedReceipts: r.u32(),
  };
}

