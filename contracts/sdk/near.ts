// Context, registers, storage and logging over the env imports.
import * as env from "./env";
import { U128 } from "./u128";

const REGISTER: u64 = 0;

export function utf8(s: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(s));
}

export function fromUtf8(b: Uint8Array): string {
  return String.UTF8.decodeUnsafe(b.dataStart, <usize>b.length);
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** The register's bytes, or null when it is unset (register_len answers u64::MAX). */
export function readRegister(id: u64): Uint8Array | null {
  const len = env.register_len(id);
  if (len == u64.MAX_VALUE) return null;
  const out = new Uint8Array(<i32>len);
  env.read_register(id, <u64>out.dataStart);
  return out;
}

function registerString(): string {
  return fromUtf8(readRegister(REGISTER)!);
}

export function input(): Uint8Array {
  env.input(REGISTER);
  const b = readRegister(REGISTER);
  return b == null ? new Uint8Array(0) : b;
}

export function currentAccountId(): string { env.current_account_id(REGISTER); return registerString(); }
export function predecessorAccountId(): string { env.predecessor_account_id(REGISTER); return registerString(); }
export function signerAccountId(): string { env.signer_account_id(REGISTER); return registerString(); }

export function attachedDeposit(): U128 {
  const buf = new ArrayBuffer(16);
  env.attached_deposit(<u64>changetype<usize>(buf));
  return U128.load(changetype<usize>(buf));
}

export function accountBalance(): U128 {
  const buf = new ArrayBuffer(16);
  env.account_balance(<u64>changetype<usize>(buf));
  return U128.load(changetype<usize>(buf));
}

export function accountLockedBalance(): U128 {
  const buf = new ArrayBuffer(16);
  env.account_locked_balance(<u64>changetype<usize>(buf));
  return U128.load(changetype<usize>(buf));
}

export function prepaidGas(): u64 { return env.prepaid_gas(); }
export function usedGas(): u64 { return env.used_gas(); }
export function epochHeight(): u64 { return env.epoch_height(); }
export function blockTimestamp(): u64 { return env.block_timestamp(); }
export function storageUsage(): u64 { return env.storage_usage(); }

export function log(msg: string): void {
  const b = String.UTF8.encode(msg);
  env.log_utf8(<u64>b.byteLength, <u64>changetype<usize>(b));
}

export function returnBytes(b: Uint8Array): void {
  env.value_return(<u64>b.length, <u64>b.dataStart);
}

/** Returns a JSON text (already serialized) as the call's result. */
export function returnJson(json: string): void {
  returnBytes(utf8(json));
}

// storage: raw byte keys and values

/** Writes; true when the key already held a value (evicted into the register). */
export function storageWrite(key: Uint8Array, value: Uint8Array): bool {
  return env.storage_write(<u64>key.length, <u64>key.dataStart, <u64>value.length, <u64>value.dataStart, REGISTER) == 1;
}

export function storageRead(key: Uint8Array): Uint8Array | null {
  if (env.storage_read(<u64>key.length, <u64>key.dataStart, REGISTER) == 0) return null;
  return readRegister(REGISTER);
}

/** Removes; the old value, or null when there was none. */
export function storageRemove(key: Uint8Array): Uint8Array | null {
  if (env.storage_remove(<u64>key.length, <u64>key.dataStart, REGISTER) == 0) return null;
  return readRegister(REGISTER);
}

export function storageHasKey(key: Uint8Array): bool {
  return env.storage_has_key(<u64>key.length, <u64>key.dataStart) == 1;
}

export function readU128(key: Uint8Array): U128 | null {
  const b = storageRead(key);
  return b == null ? null : U128.fromBytes(b);
}

export function writeU128(key: Uint8Array, v: U128): void {
  storageWrite(key, v.toBytes());
}

/**
 * near-sdk's collection key for a map entry: prefix ‖ borsh(String) = prefix ‖ u32 LE length ‖
 * UTF-8, encoded straight into one array (the prefix is ASCII).
 */
export function mapKey(prefix: string, id: string): Uint8Array {
  const p = prefix.length, n = String.UTF8.byteLength(id);
  const out = new Uint8Array(p + 4 + n);
  const at = out.dataStart;
  for (let i = 0; i < p; i++) store<u8>(at + <usize>i, <u8>prefix.charCodeAt(i));
  store<u32>(at + <usize>p, <u32>n);
  String.UTF8.encodeUnsafe(changetype<usize>(id), id.length, at + <usize>p + 4);
  return out;
}
