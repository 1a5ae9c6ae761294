import { BorshError, BorshReader } from "./borshReader.js";
import { BorshWriter } from "./borshWriter.js";

/** Function-call permission: who may be called, which methods, with how much gas allowance. */
export interface FunctionCallPermission {
  /** Remaining allowance in yoctoNEAR; null = unlimited. */
  readonly allowance: bigint | null;
  readonly receiverId: string;
  /** Empty = any method. */
  readonly methodNames: readonly string[];
}

export type AccessKeyPermission = "FullAccess" | { readonly FunctionCall: FunctionCallPermission };

/** An access key as stored in state. The nonce is a u64, kept as bigint to stay lossless. */
export interface AccessKey {
  readonly nonce: bigint;
  readonly permission: AccessKeyPermission;
}

/**
 * borsh: nonce u64 ‖ permission enum (0 FunctionCall{allowance Option<u128>, receiver_id
 * String, method_names Vec<String>}, 1 FullAccess). Gas-key variants (2, 3) are not modelled.
 */
export function encodeAccessKey(key: AccessKey): Uint8Array {
  const w = new BorshWriter().u64(key.nonce);
  if (key.permission === "FullAccess") return w.u8(1).toBytes();
  const fc = key.permission.FunctionCall;
  w.u8(0);
  if (fc.allowance === null) w.u8(0);
  else w.u8(1).u128(fc.allowance);
  w.string(fc.receiverId).u32(fc.methodNames.length);
  for (const m of fc.methodNames) w.string(m);
  return w.toBytes();
}

export function decodeAccessKey(bytes: Uint8Array): AccessKey {
  const r = new BorshReader(bytes);
  const nonce = r.u64();
  const tag = r.u8();
  let permission: AccessKeyPermission;
  if (tag === 1) {
    permission = "FullAccess";
  } else if (tag === 0) {
    const allowance = r.bool() ? r.u128() : null;
    const receiverId = r.string();
    const count = r.u32();
    const methodNames: string[] = [];
    for (let i = 0; i < count; i++) methodNames.push(r.string());
    permission = { FunctionCall: { allowance, receiverId, methodNames } };
  } else {
    throw new BorshError(`unsupported access key permission tag ${tag}`);
  }
  r.end();
  return { nonce, permission };
}
