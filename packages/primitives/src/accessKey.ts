import type { AccessKeyPermissionWithGasKeys, GasKeyInfo } from "./accessKeyWithGasKeys.js";
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

/**
 * nearcore `AccessKeyPermission`: full access, function call, and the two gas-key kinds
 * (NEP-611, protocol 85) that carry a prepaid balance and parallel nonces.
 */
export type AccessKeyPermission = AccessKeyPermissionWithGasKeys;

/** An access key as stored in state. The nonce is a u64, kept as bigint to stay lossless. */
export interface AccessKey {
  readonly nonce: bigint;
  readonly permission: AccessKeyPermission;
}

/** nearcore `AccessKey::gas_key_info`: the balance and nonce count of a gas key, else undefined. */
export function gasKeyInfoOf(permission: AccessKeyPermission): GasKeyInfo | undefined {
  if (permission === "FullAccess" || "FunctionCall" in permission) return undefined;
  return "GasKeyFullAccess" in permission ? permission.GasKeyFullAccess : permission.GasKeyFunctionCall.gasKeyInfo;
}

/** nearcore `function_call_permission`: the function-call rules of a plain or gas key, else undefined. */
export function functionCallPermissionOf(permission: AccessKeyPermission): FunctionCallPermission | undefined {
  if (permission === "FullAccess" || "GasKeyFullAccess" in permission) return undefined;
  return "FunctionCall" in permission ? permission.FunctionCall : permission.GasKeyFunctionCall.functionCall;
}

/** The same permission with another gas-key balance (a plain key comes back unchanged). */
export function withGasKeyBalance(permission: AccessKeyPermission, balance: bigint): AccessKeyPermission {
  if (permission === "FullAccess" || "FunctionCall" in permission) return permission;
  if ("GasKeyFullAccess" in permission) return { GasKeyFullAccess: { ...permission.GasKeyFullAccess, balance } };
  const g = permission.GasKeyFunctionCall;
  return { GasKeyFunctionCall: { gasKeyInfo: { ...g.gasKeyInfo, balance }, functionCall: g.functionCall } };
}

function writeFunctionCall(w: BorshWriter, fc: FunctionCallPermission): void {
  if (fc.allowance === null) w.u8(0);
  else w.u8(1).u128(fc.allowance);
  w.string(fc.receiverId).u32(fc.methodNames.length);
  for (const m of fc.methodNames) w.string(m);
}

function readFunctionCall(r: BorshReader): FunctionCallPermission {
  const allowance = r.bool() ? r.u128() : null;
  const receiverId = r.string();
  const count = r.u32();
  const methodNames: string[] = [];
  for (let i = 0; i < count; i++) methodNames.push(r.string());
  return { allowance, receiverId, methodNames };
}

const readGasKeyInfo = (r: BorshReader): GasKeyInfo => ({ balance: r.u128(), numNonces: r.u16() });

/**
 * borsh: nonce u64 ‖ permission enum (0 FunctionCall{allowance Option<u128>, receiver_id
 * String, method_names Vec<String>}, 1 FullAccess, 2 GasKeyFunctionCall(GasKeyInfo,
 * FunctionCallPermission), 3 GasKeyFullAccess(GasKeyInfo)); GasKeyInfo = balance u128 ‖
 * num_nonces u16.
 */
export function encodeAccessKey(key: AccessKey): Uint8Array {
  const w = new BorshWriter().u64(key.nonce);
  const p = key.permission;
  if (p === "FullAccess") return w.u8(1).toBytes();
  if ("FunctionCall" in p) {
    writeFunctionCall(w.u8(0), p.FunctionCall);
  } else if ("GasKeyFunctionCall" in p) {
    const g = p.GasKeyFunctionCall;
    writeFunctionCall(w.u8(2).u128(g.gasKeyInfo.balance).u16(g.gasKeyInfo.numNonces), g.functionCall);
  } else {
    w.u8(3).u128(p.GasKeyFullAccess.balance).u16(p.GasKeyFullAccess.numNonces);
  }
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
    permission = { FunctionCall: readFunctionCall(r) };
  } else if (tag === 2) {
    const gasKeyInfo = readGasKeyInfo(r);
    permission = { GasKeyFunctionCall: { gasKeyInfo, functionCall: readFunctionCall(r) } };
  } else if (tag === 3) {
    permission = { GasKeyFullAccess: readGasKeyInfo(r) };
  } else {
    throw new BorshError(`unsupported access key permission tag ${tag}`);
  }
  r.end();
  return { nonce, permission };
}
