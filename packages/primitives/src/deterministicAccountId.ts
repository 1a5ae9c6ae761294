import { keccak_256 } from "@noble/hashes/sha3.js";
import type { DeterministicAccountStateInit } from "./action.js";
import { writeStateInit } from "./actionCodec.js";
import { BorshWriter } from "./borshWriter.js";

/*
 * NEP-616 deterministic account ids. nearcore core/primitives/src/utils.rs
 * `derive_near_deterministic_account_id`: "0s" + hex of the last 20 bytes of keccak256 over the
 * borsh DeterministicAccountStateInit. near-account-id classifies "0s" + 40 lowercase hex
 * characters as `AccountType::NearDeterministicAccount` (an implicit account type).
 */

const DETERMINISTIC_ID = /^0s[0-9a-f]{40}$/;

/** True for a NEAR-deterministic account id ("0s" + 40 lowercase hex). */
export function isNearDeterministicAccountId(accountId: string): boolean {
  return accountId.length === 42 && DETERMINISTIC_ID.test(accountId);
}

/** The borsh bytes of a state init. */
export function encodeStateInit(stateInit: DeterministicAccountStateInit): Uint8Array {
  const w = new BorshWriter();
  writeStateInit(w, stateInit);
  return w.toBytes();
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** The account id a state init can only be deployed on. */
export function deriveDeterministicAccountId(stateInit: DeterministicAccountStateInit): string {
  return `0s${hex(keccak_256(encodeStateInit(stateInit)).subarray(12, 32))}`;
}

/**
 * nearcore `DeterministicAccountStateInit::len_bytes`: the keys and values summed up (what the
 * per-byte fee of the action multiplies; the identifier and borsh framing do not count).
 */
export function stateInitDataBytes(stateInit: DeterministicAccountStateInit): number {
  return stateInit.data.reduce((n, [key, value]) => n + key.length + value.length, 0);
}
