import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/** nearcore `INLINE_DISK_VALUE_THRESHOLD`: longer values pay the large-read overhead. */
const INLINE_DISK_VALUE_THRESHOLD = 4000;

/**
 * Storage API over the current account's contract data, with nearcore's storage-usage
 * accounting: a new key adds key + value + 40 bytes, an overwrite the value-length change, a
 * removal takes key + value + 40 off. Writes land in the receipt's state update, so a failed
 * receipt's rollback undoes them. Trie-node (TTN) fees are not charged: shardkit's trie has
 * a different shape than nearcore's, so those counts would not match anyway. Keys are read
 * in place (VmLogic.viewMemory): they address the state and are not kept.
 */
export function storageImports(l: VmLogic): HostImports {
  const extra = (): bigint => BigInt(l.storageNumExtraBytesRecord);
  const readKey = (len: bigint, ptr: bigint): Uint8Array => {
    const key = l.viewMemoryOrRegister(ptr, len);
    const n = BigInt(key.length);
    if (n > l.config.maxLengthStorageKey) throw hostError({ name: "KeyLengthExceeded", fields: { length: n, limit: l.config.maxLengthStorageKey } });
    return key;
  };
  return {
    storage_write(kLen: bigint, kPtr: bigint, vLen: bigint, vPtr: bigint, reg: bigint): bigint {
      l.gas.payBase("base");
      l.denyInView("storage_write");
      l.gas.payBase("storage_write_base");
      const key = readKey(kLen, kPtr);
      const value = l.memoryOrRegister(vPtr, vLen);
      const vl = BigInt(value.length);
      if (vl > l.config.maxLengthStorageValue) {
        throw hostError({ name: "ValueLengthExceeded", fields: { length: vl, limit: l.config.maxLengthStorageValue } });
      }
      l.gas.payPer("storage_write_key_byte", key.length);
      l.gas.payPer("storage_write_value_byte", value.length);
      const old = l.ext.storageGet(key);
      if (old !== undefined) l.gas.payPer("storage_write_evicted_byte", old.length);
      l.ext.storageSet(key, value);
      if (old !== undefined) {
        l.storageUsage = l.storageUsage - BigInt(old.length) + vl;
        l.writeRegister(reg, old);
        return 1n;
      }
      l.storageUsage += vl + BigInt(key.length) + extra();
      return 0n;
    },
    storage_read(kLen: bigint, kPtr: bigint, reg: bigint): bigint {
      l.gas.payBase("base");
      l.gas.payBase("storage_read_base");
      const key = readKey(kLen, kPtr);
      l.gas.payPer("storage_read_key_byte", key.length);
      const value = l.ext.storageGet(key);
      if (value === undefined) return 0n;
      l.gas.payPer("storage_read_value_byte", value.length);
      if (value.length > INLINE_DISK_VALUE_THRESHOLD) {
        l.gas.payBase("storage_large_read_overhead_base");
        l.gas.payPer("storage_large_read_overhead_byte", value.length);
      }
      l.writeRegister(reg, value);
      return 1n;
    },
    storage_remove(kLen: bigint, kPtr: bigint, reg: bigint): bigint {
      l.gas.payBase("base");
      l.denyInView("storage_remove");
      l.gas.payBase("storage_remove_base");
      const key = readKey(kLen, kPtr);
      l.gas.payPer("storage_remove_key_byte", key.length);
      const old = l.ext.storageGet(key);
      if (old === undefined) return 0n;
      l.gas.payPer("storage_remove_ret_value_byte", old.length);
      l.ext.storageRemove(key);
      l.storageUsage -= BigInt(old.length) + BigInt(key.length) + extra();
      l.writeRegister(reg, old);
      return 1n;
    },
    storage_has_key(kLen: bigint, kPtr: bigint): bigint {
      l.gas.payBase("base");
      l.gas.payBase("storage_has_key_base");
      const key = readKey(kLen, kPtr);
      l.gas.payPer("storage_has_key_byte", key.length);
      return l.ext.storageGet(key) === undefined ? 0n : 1n;
    },
    storage_iter_prefix(): bigint {
      throw hostError({ name: "Deprecated", fields: { method_name: "storage_iter_prefix" } });
    },
    storage_iter_range(): bigint {
      throw hostError({ name: "Deprecated", fields: { method_name: "storage_iter_range" } });
    },
    storage_iter_next(): bigint {
      throw hostError({ name: "Deprecated", fields: { method_name: "storage_iter_next" } });
    },
  };
}
