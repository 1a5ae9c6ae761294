import { describe, expect, it } from "vitest";
import { CURRENT, DEFAULT_CONTEXT, E, U64_MAX, hostErrorOf, hostKit, readU128 } from "./hostKit.js";

const enc = new TextEncoder();

describe("registers", () => {
  it("write_register / read_register / register_len with nearcore's charges", () => {
    const k = hostKit();
    const [len, ptr] = k.put(100, "abc");
    expect(k.gasOf(() => k.env.write_register(7n, len, ptr))).toBe(E.base + E.read_memory_base + 3n * E.read_memory_byte + E.write_register_base + 3n * E.write_register_byte);
    expect(k.gasOf(() => expect(k.env.register_len(7n)).toBe(3n))).toBe(E.base);
    expect(k.gasOf(() => k.env.read_register(7n, 200n))).toBe(E.base + E.read_register_base + 3n * E.read_register_byte + E.write_memory_base + 3n * E.write_memory_byte);
    expect(k.get(200, 3)).toEqual(enc.encode("abc"));
    expect(k.env.register_len(8n)).toBe(U64_MAX);
  });

  it.each([
    ["an unset register", (k: ReturnType<typeof hostKit>) => k.env.read_register(3n, 0n), { name: "InvalidRegisterId", fields: { register_id: 3n } }],
    ["memory past the end", (k: ReturnType<typeof hostKit>) => k.env.write_register(0n, 10n, 65_530n), { name: "MemoryAccessViolation" }],
    ["a pointer beyond u32", (k: ReturnType<typeof hostKit>) => k.env.write_register(0n, 1n, 1n << 40n), { name: "MemoryAccessViolation" }],
    ["a length whose gas overflows u64", (k: ReturnType<typeof hostKit>) => k.env.write_register(0n, U64_MAX - 1n, 0n), { name: "IntegerOverflow" }],
    ["a length within u64 gas but beyond the limit", (k: ReturnType<typeof hostKit>) => k.env.write_register(0n, 1n << 40n, 0n), { name: "GasLimitExceeded" }],
  ])("fails on %s", (_, fn, error) => {
    const k = hostKit();
    expect(hostErrorOf(() => fn(k))).toEqual(error);
  });

  it("limits the number of registers, even for a replacement (nearcore quirk)", () => {
    const k = hostKit();
    for (let i = 0n; i < 100n; i++) k.env.write_register(i, 1n, 0n);
    expect(hostErrorOf(() => k.env.write_register(100n, 1n, 0n))).toEqual({ name: "MemoryAccessViolation" });
    expect(hostErrorOf(() => k.env.write_register(5n, 1n, 0n))).toEqual({ name: "MemoryAccessViolation" });
  });

  it("reads a u64::MAX length as 'from register' wherever data is taken", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, "from a register");
    k.env.write_register(1n, len, ptr);
    k.env.log_utf8(len, ptr);
    k.env.sha256(U64_MAX, 1n, 2n);
    k.env.sha256(len, ptr, 3n);
    expect(k.register(2n)).toEqual(k.register(3n));
  });
});

describe("context", () => {
  it.each([
    ["current_account_id", CURRENT],
    ["signer_account_id", DEFAULT_CONTEXT.signerAccountId],
    ["predecessor_account_id", DEFAULT_CONTEXT.predecessorAccountId],
  ])("%s writes the id to a register (base + register write)", (name, id) => {
    const k = hostKit();
    expect(k.gasOf(() => k.env[name]!(0n))).toBe(E.base + E.write_register_base + BigInt(id.length) * E.write_register_byte);
    expect(k.register(0n)).toEqual(enc.encode(id));
  });

  it("input charges no per-byte register fee (shared data, deterministic_account_ids)", () => {
    const k = hostKit();
    expect(k.gasOf(() => k.env.input(0n))).toBe(E.base + E.write_register_base);
    expect(k.register(0n)).toEqual(DEFAULT_CONTEXT.input);
  });

  it("block, epoch, storage usage, signer key and code hash", () => {
    const k = hostKit({ signerAccountPk: Uint8Array.of(0, ...new Uint8Array(32).fill(3)) });
    expect(k.env.block_index()).toBe(10n);
    expect(k.env.block_timestamp()).toBe(DEFAULT_CONTEXT.blockTimestamp);
    expect(k.env.epoch_height()).toBe(2n);
    expect(k.env.storage_usage()).toBe(500n);
    k.env.signer_account_pk(1n);
    expect(k.register(1n)).toEqual(Uint8Array.of(0, ...new Uint8Array(32).fill(3)));
    expect(k.env.current_contract_code(2n)).toBe(1n);
    expect(k.register(2n)).toEqual(new Uint8Array(32).fill(1));
    expect(hostKit({ codeHash: new Uint8Array(32) }).env.current_contract_code(2n)).toBe(0n);
  });

  it.each(["signer_account_id", "signer_account_pk", "predecessor_account_id", "prepaid_gas", "used_gas", "promise_results_count"])(
    "%s is prohibited in view calls",
    (name) => {
      const k = hostKit({ isView: true });
      expect(hostErrorOf(() => k.env[name]!(0n, 0n))).toEqual({ name: "ProhibitedInView", fields: { method_name: name } });
      expect(k.l.gas.burntGas).toBe(E.base); // base is paid before the check
    },
  );
});

describe("economics", () => {
  it("balance includes the attached deposit; locked, deposit, prepaid and used gas", () => {
    const k = hostKit();
    expect(k.gasOf(() => k.env.account_balance(0n))).toBe(E.base + E.write_memory_base + 16n * E.write_memory_byte);
    expect(readU128(k.get(0, 16))).toBe(DEFAULT_CONTEXT.accountBalance + 5n);
    k.env.account_locked_balance(16n);
    expect(readU128(k.get(16, 16))).toBe(7n);
    k.env.attached_deposit(32n);
    expect(readU128(k.get(32, 16))).toBe(5n);
    expect(k.env.prepaid_gas()).toBe(DEFAULT_CONTEXT.prepaidGas);
    const used = k.env.used_gas();
    expect(used).toBe(k.l.gas.usedGas);
  });
});

describe("validator", () => {
  it("stake of a validator, 0 for anyone else, and the total", () => {
    const k = hostKit();
    const [len, ptr] = k.put(0, "validator.test.near");
    const g = k.gasOf(() => k.env.validator_stake(len, ptr, 100n));
    expect(g).toBe(E.base + E.read_memory_base + len * E.read_memory_byte + E.utf8_decoding_base + len * E.utf8_decoding_byte + E.validator_stake_base + E.write_memory_base + 16n * E.write_memory_byte);
    expect(readU128(k.get(100, 16))).toBe(42n * 10n ** 24n);
    const [l2, p2] = k.put(0, "nobody.test.near");
    k.env.validator_stake(l2, p2, 100n);
    expect(readU128(k.get(100, 16))).toBe(0n);
    k.env.validator_total_stake(200n);
    expect(readU128(k.get(200, 16))).toBe(42n * 10n ** 24n);
    const [l3, p3] = k.put(0, "Not Valid");
    expect(hostErrorOf(() => k.env.validator_stake(l3, p3, 100n))).toEqual({ name: "InvalidAccountId" });
  });
});
