import { describe, expect, it } from "vitest";
import { E, P, hostErrorOf, hostKit } from "./hostKit.js";

const enc = new TextEncoder();

describe("storage", () => {
  it("write, overwrite, read, has_key, remove: results, registers, usage and gas", () => {
    const k = hostKit();
    const [kl, kp] = k.put(0, "key");
    const [vl, vp] = k.put(16, "value");
    const write = k.gasOf(() => expect(k.env.storage_write(kl, kp, vl, vp, 1n)).toBe(0n));
    const mem = (n: bigint) => E.read_memory_base + n * E.read_memory_byte;
    expect(write).toBe(E.base + E.storage_write_base + mem(kl) + mem(vl) + kl * E.storage_write_key_byte + vl * E.storage_write_value_byte);
    expect(k.l.storageUsage).toBe(500n + 3n + 5n + 40n);
    expect(k.register(1n)).toBeUndefined();

    const [nl, np] = k.put(32, "longer value");
    const over = k.gasOf(() => expect(k.env.storage_write(kl, kp, nl, np, 1n)).toBe(1n));
    expect(over).toBe(
      E.base + E.storage_write_base + mem(kl) + mem(nl) + kl * E.storage_write_key_byte + nl * E.storage_write_value_byte +
        5n * E.storage_write_evicted_byte + E.write_register_base + 5n * E.write_register_byte,
    );
    expect(k.register(1n)).toEqual(enc.encode("value"));
    expect(k.l.storageUsage).toBe(500n + 3n + 12n + 40n);

    const read = k.gasOf(() => expect(k.env.storage_read(kl, kp, 2n)).toBe(1n));
    expect(read).toBe(E.base + E.storage_read_base + mem(kl) + kl * E.storage_read_key_byte + 12n * E.storage_read_value_byte + E.write_register_base + 12n * E.write_register_byte);
    expect(k.register(2n)).toEqual(enc.encode("longer value"));
    expect(k.env.storage_has_key(kl, kp)).toBe(1n);

    const [ml, mp] = k.put(64, "missing");
    expect(k.env.storage_read(ml, mp, 3n)).toBe(0n);
    expect(k.register(3n)).toBeUndefined();
    expect(k.env.storage_has_key(ml, mp)).toBe(0n);
    expect(k.env.storage_remove(ml, mp, 3n)).toBe(0n);

    const remove = k.gasOf(() => expect(k.env.storage_remove(kl, kp, 4n)).toBe(1n));
    expect(remove).toBe(E.base + E.storage_remove_base + mem(kl) + kl * E.storage_remove_key_byte + 12n * E.storage_remove_ret_value_byte + E.write_register_base + 12n * E.write_register_byte);
    expect(k.register(4n)).toEqual(enc.encode("longer value"));
    expect(k.l.storageUsage).toBe(500n);
    expect(k.storage.size).toBe(0);
  });

  it("enforces key and value length limits", () => {
    const k = hostKit({}, { ...P, wasm: { ...P.wasm, maxLengthStorageKey: 2n, maxLengthStorageValue: 3n } });
    const [kl, kp] = k.put(0, "key");
    expect(hostErrorOf(() => k.env.storage_write(kl, kp, 1n, 0n, 0n))).toEqual({ name: "KeyLengthExceeded", fields: { length: 3n, limit: 2n } });
    expect(hostErrorOf(() => k.env.storage_read(kl, kp, 0n))).toEqual({ name: "KeyLengthExceeded", fields: { length: 3n, limit: 2n } });
    expect(hostErrorOf(() => k.env.storage_write(2n, 0n, 4n, 0n, 0n))).toEqual({ name: "ValueLengthExceeded", fields: { length: 4n, limit: 3n } });
  });

  it("view calls may read but not write; iterators are deprecated", () => {
    const k = hostKit({ isView: true });
    const [kl, kp] = k.put(0, "key");
    expect(k.env.storage_read(kl, kp, 0n)).toBe(0n);
    expect(hostErrorOf(() => k.env.storage_write(kl, kp, kl, kp, 0n))).toEqual({ name: "ProhibitedInView", fields: { method_name: "storage_write" } });
    expect(hostErrorOf(() => k.env.storage_remove(kl, kp, 0n))).toEqual({ name: "ProhibitedInView", fields: { method_name: "storage_remove" } });
    expect(hostErrorOf(() => k.env.storage_iter_prefix(kl, kp))).toEqual({ name: "Deprecated", fields: { method_name: "storage_iter_prefix" } });
  });
});
