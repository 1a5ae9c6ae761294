/**
 * Host functions per import group, table-driven, on the real VmLogic and its real `env`
 * imports (hostKit): each row calls host functions as a guest would and states the exact
 * result (return value, register, memory, logs, storage, receipts, or the HostError) and the
 * exact gas, as units of each ext cost (checked against the burnt gas and, cost by cost,
 * against the call's gas_profile) plus the action fees burnt for new receipts.
 */
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ExtCost } from "../../../src/chain/runtime/parameters.js";
import type { HostError } from "../../../src/chain/vm/HostError.js";
import type { VmContext } from "../../../src/chain/vm/VmContext.js";
import { CURRENT, DEFAULT_CONTEXT, E, P, U64_MAX, hostErrorOf, hostKit, readU128, u128 } from "./hostKit.js";

type Kit = ReturnType<typeof hostKit>;
const F = P.fees;
const TGAS = 10n ** 12n;
const enc = new TextEncoder();
const utf16 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "utf16le"));
const hex = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString("hex");

interface HostCase {
  readonly name: string;
  readonly context?: Partial<VmContext>;
  /** Prepares memory, registers, storage, promises; its gas is not part of the row's. */
  readonly setup?: (k: Kit) => void;
  /** The host call(s) under test. */
  readonly call: (k: Kit) => unknown;
  /** The value returned (undefined for void functions), unless `error` is given. */
  readonly result?: unknown;
  readonly error?: HostError;
  /** Ext costs charged, in units (per-byte costs: bytes). */
  readonly units: Partial<Record<ExtCost, bigint | number>>;
  /** Action costs burnt, by gas_profile name (new receipts and their actions). */
  readonly actions?: Readonly<Record<string, bigint>>;
  /** Gas reserved for new receipts (used − burnt) by the call. */
  readonly reserved?: bigint;
  /** Further effects: registers, memory, logs, storage, receipts. */
  readonly check?: (k: Kit) => void;
}

/** Gas by gas_profile cost name. */
function profileOf(k: Kit): Map<string, bigint> {
  return new Map(k.l.gas.gasProfile().map((e) => [e.cost, BigInt(e.gas_used)]));
}

function runCase(c: HostCase): void {
  const k = hostKit(c.context);
  c.setup?.(k);
  const burnt0 = k.l.gas.burntGas;
  const reserved0 = k.l.gas.usedGas - k.l.gas.burntGas;
  const profile0 = profileOf(k);
  if (c.error !== undefined) expect(hostErrorOf(() => c.call(k))).toEqual(c.error);
  else expect(c.call(k)).toEqual(c.result);

  const expected = new Map<string, bigint>();
  let total = 0n;
  for (const [cost, units] of Object.entries(c.units) as [ExtCost, bigint | number][]) {
    const gas = BigInt(units) * E[cost];
    total += gas;
    if (gas > 0n) expected.set(cost.toUpperCase(), gas);
  }
  for (const [name, gas] of Object.entries(c.actions ?? {})) {
    total += gas;
    if (gas > 0n) expected.set(name, gas);
  }
  expect(k.l.gas.burntGas - burnt0).toBe(total);
  const profile1 = profileOf(k);
  const delta = new Map<string, bigint>();
  for (const [name, gas] of profile1) {
    const d = gas - (profile0.get(name) ?? 0n);
    if (d !== 0n) delta.set(name, d);
  }
  expect(Object.fromEntries(delta)).toEqual(Object.fromEntries(expected));
  expect(k.l.gas.usedGas - k.l.gas.burntGas - reserved0).toBe(c.reserved ?? 0n);
  c.check?.(k);
}

const mem = (bytes: number | bigint) => ({ read_memory_base: 1, read_memory_byte: BigInt(bytes) });
const merge = (...parts: Partial<Record<ExtCost, bigint | number>>[]): Partial<Record<ExtCost, bigint>> => {
  const out: Partial<Record<ExtCost, bigint>> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part) as [ExtCost, bigint | number][]) out[k] = (out[k] ?? 0n) + BigInt(v);
  return out;
};
const toRegister = (bytes: number) => ({ write_register_base: 1, write_register_byte: bytes });
const toMemory = (bytes: number) => ({ write_memory_base: 1, write_memory_byte: bytes });
const decodeUtf8 = (bytes: number) => ({ utf8_decoding_base: 1, utf8_decoding_byte: bytes });

const REGISTERS: HostCase[] = [
  {
    name: "write_register copies memory into a register",
    setup: (k) => k.put(0, "abc"),
    call: (k) => k.env.write_register(1n, 3n, 0n),
    units: merge({ base: 1 }, mem(3), toRegister(3)),
    check: (k) => expect(k.register(1n)).toEqual(enc.encode("abc")),
  },
  {
    name: "register_len of a register",
    setup: (k) => k.l.writeRegister(5n, Uint8Array.of(1, 2, 3, 4)),
    call: (k) => k.env.register_len(5n),
    result: 4n,
    units: { base: 1 },
  },
  { name: "register_len of an unset register is u64::MAX", call: (k) => k.env.register_len(6n), result: U64_MAX, units: { base: 1 } },
  {
    name: "read_register copies a register into memory",
    setup: (k) => k.l.writeRegister(5n, Uint8Array.of(9, 8, 7, 6)),
    call: (k) => k.env.read_register(5n, 64n),
    units: merge({ base: 1, read_register_base: 1, read_register_byte: 4 }, toMemory(4)),
    check: (k) => expect(k.get(64, 4)).toEqual(Uint8Array.of(9, 8, 7, 6)),
  },
  {
    name: "read_register of an unset register",
    call: (k) => k.env.read_register(9n, 0n),
    error: { name: "InvalidRegisterId", fields: { register_id: 9n } },
    units: { base: 1 },
  },
  {
    name: "write_register out of memory bounds",
    call: (k) => k.env.write_register(1n, 16n, 65_530n),
    error: { name: "MemoryAccessViolation" },
    units: merge({ base: 1 }, mem(16)),
  },
];

const accountIdCase = (fn: string, id: string): HostCase => ({
  name: `${fn} into a register`,
  call: (k) => k.env[fn](2n),
  units: merge({ base: 1 }, toRegister(id.length)),
  check: (k) => expect(new TextDecoder().decode(k.register(2n))).toBe(id),
});

const CONTEXT: HostCase[] = [
  accountIdCase("current_account_id", CURRENT),
  accountIdCase("signer_account_id", DEFAULT_CONTEXT.signerAccountId),
  accountIdCase("predecessor_account_id", DEFAULT_CONTEXT.predecessorAccountId),
  {
    name: "signer_account_pk: the borsh key",
    context: { signerAccountPk: Uint8Array.of(0, ...new Uint8Array(32).fill(3)) },
    call: (k) => k.env.signer_account_pk(1n),
    units: merge({ base: 1 }, toRegister(33)),
    check: (k) => expect(k.register(1n)).toEqual(Uint8Array.of(0, ...new Uint8Array(32).fill(3))),
  },
  {
    name: "input: shared data, no per-byte register fee",
    call: (k) => k.env.input(0n),
    units: { base: 1, write_register_base: 1 },
    check: (k) => expect(k.register(0n)).toEqual(DEFAULT_CONTEXT.input),
  },
  { name: "block_index", call: (k) => k.env.block_index(), result: 10n, units: { base: 1 } },
  { name: "block_timestamp", call: (k) => k.env.block_timestamp(), result: DEFAULT_CONTEXT.blockTimestamp, units: { base: 1 } },
  { name: "epoch_height", call: (k) => k.env.epoch_height(), result: 2n, units: { base: 1 } },
  { name: "storage_usage", call: (k) => k.env.storage_usage(), result: 500n, units: { base: 1 } },
  {
    name: "current_contract_code: the code hash",
    call: (k) => k.env.current_contract_code(3n),
    result: 1n,
    units: merge({ base: 1 }, toRegister(32)),
    check: (k) => expect(k.register(3n)).toEqual(new Uint8Array(32).fill(1)),
  },
  {
    name: "current_contract_code without code",
    context: { codeHash: new Uint8Array(32) },
    call: (k) => k.env.current_contract_code(3n),
    result: 0n,
    units: { base: 1 },
  },
  {
    name: "current_contract_code of a global contract by hash (NEP-616 mode 2)",
    context: { codeHash: new Uint8Array(32), globalContract: { kind: "CodeHash", codeHash: new Uint8Array(32).fill(6) } },
    call: (k) => k.env.current_contract_code(3n),
    result: 2n,
    units: merge({ base: 1 }, toRegister(32)),
    check: (k) => expect(k.register(3n)).toEqual(new Uint8Array(32).fill(6)),
  },
  {
    name: "current_contract_code of a global contract by account id (NEP-616 mode 3)",
    context: { codeHash: new Uint8Array(32), globalContract: { kind: "AccountId", accountId: "lib.test.near" } },
    call: (k) => k.env.current_contract_code(3n),
    result: 3n,
    units: merge({ base: 1 }, toRegister(13)),
    check: (k) => expect(Buffer.from(k.register(3n)!).toString()).toBe("lib.test.near"),
  },
  {
    name: "signer_account_id in a view",
    context: { isView: true },
    call: (k) => k.env.signer_account_id(1n),
    error: { name: "ProhibitedInView", fields: { method_name: "signer_account_id" } },
    units: { base: 1 },
  },
  {
    name: "current_account_id in a view",
    context: { isView: true },
    call: (k) => k.env.current_account_id(1n),
    units: merge({ base: 1 }, toRegister(CURRENT.length)),
  },
];

const u128At = (ptr: number, value: bigint) => (k: Kit) => expect(readU128(k.get(ptr, 16))).toBe(value);

const ECONOMICS: HostCase[] = [
  {
    name: "account_balance includes the attached deposit",
    call: (k) => k.env.account_balance(32n),
    units: merge({ base: 1 }, toMemory(16)),
    check: u128At(32, DEFAULT_CONTEXT.accountBalance + DEFAULT_CONTEXT.attachedDeposit),
  },
  { name: "account_locked_balance", call: (k) => k.env.account_locked_balance(0n), units: merge({ base: 1 }, toMemory(16)), check: u128At(0, 7n) },
  { name: "attached_deposit", call: (k) => k.env.attached_deposit(16n), units: merge({ base: 1 }, toMemory(16)), check: u128At(16, 5n) },
  // NEP-616 storage parameters (nearcore logic tests `test_storage_config_*`), at protocol 85's values; also in views.
  { name: "storage_config_byte_cost", call: (k) => k.env.storage_config_byte_cost(48n), units: merge({ base: 1 }, toMemory(16)), check: u128At(48, 10n ** 19n) },
  { name: "storage_config_num_bytes_account", context: { isView: true }, call: (k) => k.env.storage_config_num_bytes_account(), result: 100n, units: { base: 1 } },
  { name: "storage_config_num_extra_bytes_record", call: (k) => k.env.storage_config_num_extra_bytes_record(), result: 40n, units: { base: 1 } },
  { name: "prepaid_gas", call: (k) => k.env.prepaid_gas(), result: 300n * TGAS, units: { base: 1 } },
  { name: "used_gas counts its own base fee", call: (k) => k.env.used_gas(), result: E.base, units: { base: 1 } },
  {
    name: "prepaid_gas in a view",
    context: { isView: true },
    call: (k) => k.env.prepaid_gas(),
    error: { name: "ProhibitedInView", fields: { method_name: "prepaid_gas" } },
    units: { base: 1 },
  },
];

const { publicKey: edPublic, privateKey: edPrivate } = generateKeyPairSync("ed25519");
const ED_KEY = new Uint8Array(edPublic.export({ format: "der", type: "spki" }).subarray(12));
const ED_MESSAGE = enc.encode("hello near");
const ED_SIGNATURE = new Uint8Array(sign(null, ED_MESSAGE, edPrivate));

const hashCase = (fn: "sha256" | "keccak256" | "keccak512", digest: string): HostCase => ({
  name: `${fn} of "abc"`,
  setup: (k) => k.put(0, "abc"),
  call: (k) => k.env[fn](3n, 0n, 1n),
  units: merge({ [`${fn}_base`]: 1, [`${fn}_byte`]: 3 }, mem(3), toRegister(digest.length / 2)),
  check: (k) => expect(hex(k.register(1n))).toBe(digest),
});

const MATH: HostCase[] = [
  hashCase("sha256", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
  hashCase("keccak256", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"),
  hashCase(
    "keccak512",
    "18587dc2ea106b9a1563e32b3312421ca164c7f1f07bc922a9c83d77cea3a1e5d0c69910739025372dc14ac9642629379540c17e2a65b19d77aa511a9d00bb96",
  ),
  {
    name: "sha256 of a register (len = u64::MAX)",
    setup: (k) => k.l.writeRegister(4n, enc.encode("abc")),
    call: (k) => k.env.sha256(U64_MAX, 4n, 1n),
    units: merge({ sha256_base: 1, sha256_byte: 3, read_register_base: 1, read_register_byte: 3 }, toRegister(32)),
    check: (k) => expect(hex(k.register(1n))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
  },
  {
    name: "ripemd160 of \"abc\": one 64-byte block",
    setup: (k) => k.put(0, "abc"),
    call: (k) => k.env.ripemd160(3n, 0n, 1n),
    units: merge({ ripemd160_base: 1, ripemd160_block: 1 }, mem(3), toRegister(20)),
    check: (k) => expect(hex(k.register(1n))).toBe("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"),
  },
  {
    name: "ripemd160 of 56 bytes: two blocks with the padding",
    setup: (k) => k.put(0, new Uint8Array(56)),
    call: (k) => k.env.ripemd160(56n, 0n, 1n),
    units: merge({ ripemd160_base: 1, ripemd160_block: 2 }, mem(56), toRegister(20)),
  },
  {
    name: "random_seed into a register",
    call: (k) => k.env.random_seed(1n),
    units: merge({ base: 1 }, toRegister(32)),
    check: (k) => expect(k.register(1n)).toEqual(new Uint8Array(32).fill(9)),
  },
  {
    name: "ed25519_verify of a good signature",
    setup: (k) => {
      k.put(0, ED_SIGNATURE);
      k.put(100, ED_MESSAGE);
      k.put(200, ED_KEY);
    },
    call: (k) => k.env.ed25519_verify(64n, 0n, BigInt(ED_MESSAGE.length), 100n, 32n, 200n),
    result: 1n,
    units: merge({ ed25519_verify_base: 1, ed25519_verify_byte: ED_MESSAGE.length }, mem(64), mem(ED_MESSAGE.length), mem(32)),
  },
  {
    name: "ed25519_verify of a wrong message",
    setup: (k) => {
      k.put(0, ED_SIGNATURE);
      k.put(100, "jello near");
      k.put(200, ED_KEY);
    },
    call: (k) => k.env.ed25519_verify(64n, 0n, 10n, 100n, 32n, 200n),
    result: 0n,
    units: merge({ ed25519_verify_base: 1, ed25519_verify_byte: 10 }, mem(64), mem(10), mem(32)),
  },
  {
    name: "ed25519_verify with a short signature",
    call: (k) => k.env.ed25519_verify(63n, 0n, 0n, 100n, 32n, 200n),
    error: { name: "Ed25519VerifyInvalidInput", fields: { msg: "invalid signature length" } },
    units: merge({ ed25519_verify_base: 1 }, mem(63)),
  },
  {
    name: "ecrecover with a bad v",
    call: (k) => k.env.ecrecover(32n, 0n, 64n, 100n, 4n, 0n, 1n),
    error: { name: "ECRecoverError", fields: { msg: "V recovery byte 0 through 3 are valid but was provided 4" } },
    units: merge({ ecrecover_base: 1 }, mem(64)),
  },
];

/** AssemblyScript's string layout: a u32 byte length just before the UTF-16LE code units. */
function putAsString(k: Kit, ptr: number, s: string): void {
  const units = utf16(s);
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, units.length, true);
  k.put(ptr - 4, len);
  k.put(ptr, units);
}
const ABORT_MESSAGE = 'bad, filename: "f.ts" line: 3 col: 7';

const LOGS_AND_PANICS: HostCase[] = [
  {
    name: "log_utf8",
    setup: (k) => k.put(0, "hello"),
    call: (k) => k.env.log_utf8(5n, 0n),
    units: merge({ base: 1, log_base: 1, log_byte: 5 }, decodeUtf8(5), mem(5)),
    check: (k) => expect(k.l.logs).toEqual(["hello"]),
  },
  {
    name: "log_utf8 of a NUL-terminated string: memory paid byte by byte",
    setup: (k) => k.put(0, "hi\0"),
    call: (k) => k.env.log_utf8(U64_MAX, 0n),
    units: merge({ base: 1, log_base: 1, log_byte: 2, read_memory_base: 3, read_memory_byte: 3 }, { utf8_decoding_base: 1, utf8_decoding_byte: 2 }),
    check: (k) => expect(k.l.logs).toEqual(["hi"]),
  },
  {
    name: "log_utf8 of bad UTF-8",
    setup: (k) => k.put(0, Uint8Array.of(0xff, 0xfe)),
    call: (k) => k.env.log_utf8(2n, 0n),
    error: { name: "BadUTF8" },
    units: merge({ base: 1 }, decodeUtf8(2), mem(2)),
  },
  {
    name: "log_utf16: bytes decoded as UTF-16LE, the log paid in UTF-8 bytes",
    setup: (k) => k.put(0, utf16("hé")),
    call: (k) => k.env.log_utf16(4n, 0n),
    units: merge({ base: 1, utf16_decoding_base: 1, utf16_decoding_byte: 4, log_base: 1, log_byte: 3 }, mem(4)),
    check: (k) => expect(k.l.logs).toEqual(["hé"]),
  },
  {
    name: "panic",
    call: (k) => k.env.panic(),
    error: { name: "GuestPanic", fields: { panic_msg: "explicit guest panic" } },
    units: { base: 1 },
  },
  {
    name: "panic_utf8 with a message",
    setup: (k) => k.put(0, "boom"),
    call: (k) => k.env.panic_utf8(4n, 0n),
    error: { name: "GuestPanic", fields: { panic_msg: "boom" } },
    units: merge({ base: 1 }, decodeUtf8(4), mem(4)),
  },
  {
    name: "abort (AssemblyScript): logs ABORT and panics with message, file, line and column",
    setup: (k) => {
      putAsString(k, 104, "bad");
      putAsString(k, 204, "f.ts");
    },
    call: (k) => k.env.abort(104, 204, 3, 7),
    error: { name: "GuestPanic", fields: { panic_msg: ABORT_MESSAGE } },
    units: merge(
      { base: 1, log_base: 1, log_byte: ABORT_MESSAGE.length },
      mem(4),
      mem(4),
      { utf16_decoding_base: 1, utf16_decoding_byte: 6 },
      mem(6),
      { utf16_decoding_base: 1, utf16_decoding_byte: 8 },
      mem(8),
    ),
    check: (k) => expect(k.l.logs).toEqual([`ABORT: ${ABORT_MESSAGE}`]),
  },
  {
    name: "value_return without output receivers",
    setup: (k) => k.put(0, '"ok"'),
    call: (k) => k.env.value_return(4n, 0n),
    units: merge({ base: 1 }, mem(4)),
    check: (k) => expect(k.l.returnData).toEqual({ kind: "Value", value: enc.encode('"ok"') }),
  },
  {
    name: "value_return to two receivers pays data-receipt bytes for each",
    context: { outputDataReceivers: ["a.test.near", CURRENT] },
    setup: (k) => k.put(0, '"ok"'),
    call: (k) => k.env.value_return(4n, 0n),
    units: merge({ base: 1 }, mem(4)),
    actions: {
      NEW_DATA_RECEIPT_BYTE:
        4n * (F.dataReceiptCreationPerByte.sendNotSir + F.dataReceiptCreationPerByte.execution) +
        4n * (F.dataReceiptCreationPerByte.sendSir + F.dataReceiptCreationPerByte.execution),
    },
  },
];

/** A stored value "v1v1" under "k1", written in setup. */
const stored = (k: Kit) => {
  k.put(0, "k1");
  k.put(10, "v1v1");
  k.env.storage_write(2n, 0n, 4n, 10n, 0n);
};
const NEW_RECORD = 2n + 4n + 40n;

const STORAGE: HostCase[] = [
  {
    name: "storage_write of a new key: usage grows by key + value + 40",
    setup: (k) => {
      k.put(0, "k1");
      k.put(10, "v1v1");
    },
    call: (k) => k.env.storage_write(2n, 0n, 4n, 10n, 0n),
    result: 0n,
    units: merge({ base: 1, storage_write_base: 1, storage_write_key_byte: 2, storage_write_value_byte: 4 }, mem(2), mem(4)),
    check: (k) => {
      expect(k.l.storageUsage).toBe(500n + NEW_RECORD);
      expect(k.storage.get(hex(enc.encode("k1")))).toEqual(enc.encode("v1v1"));
      expect(k.register(0n)).toBeUndefined();
    },
  },
  {
    name: "storage_write over a key: the old value into the register, usage by the length change",
    setup: (k) => {
      stored(k);
      k.put(20, "v2");
    },
    call: (k) => k.env.storage_write(2n, 0n, 2n, 20n, 5n),
    result: 1n,
    units: merge(
      { base: 1, storage_write_base: 1, storage_write_key_byte: 2, storage_write_value_byte: 2, storage_write_evicted_byte: 4 },
      mem(2),
      mem(2),
      toRegister(4),
    ),
    check: (k) => {
      expect(k.register(5n)).toEqual(enc.encode("v1v1"));
      expect(k.l.storageUsage).toBe(500n + NEW_RECORD - 2n);
    },
  },
  {
    name: "storage_read of a stored key",
    setup: stored,
    call: (k) => k.env.storage_read(2n, 0n, 3n),
    result: 1n,
    units: merge({ base: 1, storage_read_base: 1, storage_read_key_byte: 2, storage_read_value_byte: 4 }, mem(2), toRegister(4)),
    check: (k) => expect(k.register(3n)).toEqual(enc.encode("v1v1")),
  },
  {
    name: "storage_read of a missing key",
    setup: (k) => k.put(0, "zz"),
    call: (k) => k.env.storage_read(2n, 0n, 3n),
    result: 0n,
    units: merge({ base: 1, storage_read_base: 1, storage_read_key_byte: 2 }, mem(2)),
    check: (k) => expect(k.register(3n)).toBeUndefined(),
  },
  {
    name: "storage_read of a value over 4000 bytes pays the large-read overhead",
    setup: (k) => {
      k.put(0, "k1");
      k.put(100, new Uint8Array(4001).fill(7));
      k.env.storage_write(2n, 0n, 4001n, 100n, 0n);
    },
    call: (k) => k.env.storage_read(2n, 0n, 3n),
    result: 1n,
    units: merge(
      { base: 1, storage_read_base: 1, storage_read_key_byte: 2, storage_read_value_byte: 4001 },
      { storage_large_read_overhead_base: 1, storage_large_read_overhead_byte: 4001 },
      mem(2),
      toRegister(4001),
    ),
  },
  {
    name: "storage_has_key",
    setup: stored,
    call: (k) => k.env.storage_has_key(2n, 0n),
    result: 1n,
    units: merge({ base: 1, storage_has_key_base: 1, storage_has_key_byte: 2 }, mem(2)),
  },
  {
    name: "storage_remove: the old value into the register, usage back",
    setup: stored,
    call: (k) => k.env.storage_remove(2n, 0n, 4n),
    result: 1n,
    units: merge({ base: 1, storage_remove_base: 1, storage_remove_key_byte: 2, storage_remove_ret_value_byte: 4 }, mem(2), toRegister(4)),
    check: (k) => {
      expect(k.register(4n)).toEqual(enc.encode("v1v1"));
      expect(k.l.storageUsage).toBe(500n);
      expect(k.storage.size).toBe(0);
    },
  },
  {
    name: "storage_remove of a missing key",
    setup: (k) => k.put(0, "zz"),
    call: (k) => k.env.storage_remove(2n, 0n, 4n),
    result: 0n,
    units: merge({ base: 1, storage_remove_base: 1, storage_remove_key_byte: 2 }, mem(2)),
  },
  {
    name: "storage_write in a view",
    context: { isView: true },
    call: (k) => k.env.storage_write(2n, 0n, 4n, 10n, 0n),
    error: { name: "ProhibitedInView", fields: { method_name: "storage_write" } },
    units: { base: 1 },
  },
  {
    name: "storage_iter_prefix is deprecated",
    call: (k) => k.env.storage_iter_prefix(0n, 0n),
    error: { name: "Deprecated", fields: { method_name: "storage_iter_prefix" } },
    units: {},
  },
];

const OTHER = "other.test.near";
/** Receiver at 0, method "go" at 100, args "{}" at 200, amount (u128) at 300. */
const callArgs = (receiver: string, deposit = 0n) => (k: Kit) => {
  k.put(0, receiver);
  k.put(100, "go");
  k.put(200, "{}");
  k.put(300, u128(deposit));
};
const newReceipt = (receiver: string) => merge({ base: 1 }, mem(receiver.length), decodeUtf8(receiver.length));
/** promise_batch_action_function_call's own host costs: amount, method and args read. */
const functionCallHost = merge({ base: 1 }, mem(16), mem(2), mem(2));

const PROMISES: HostCase[] = [
  {
    name: "promise_batch_create: the receipt's send fee burnt, its execution fee reserved",
    setup: callArgs(OTHER),
    call: (k) => k.env.promise_batch_create(BigInt(OTHER.length), 0n),
    result: 0n,
    units: newReceipt(OTHER),
    actions: { NEW_ACTION_RECEIPT: F.actionReceiptCreation.sendNotSir },
    reserved: F.actionReceiptCreation.execution,
    check: (k) => expect(k.l.receipts.receipts).toEqual([{ receiverId: OTHER, inputDataIds: [], outputDataReceivers: [], actions: [] }]),
  },
  {
    name: "promise_batch_create for the current account pays the sir fee",
    setup: callArgs(CURRENT),
    call: (k) => k.env.promise_batch_create(BigInt(CURRENT.length), 0n),
    result: 0n,
    units: newReceipt(CURRENT),
    actions: { NEW_ACTION_RECEIPT: F.actionReceiptCreation.sendSir },
    reserved: F.actionReceiptCreation.execution,
  },
  {
    name: "promise_batch_create with an invalid account id",
    setup: callArgs("NOT VALID"),
    call: (k) => k.env.promise_batch_create(9n, 0n),
    error: { name: "InvalidAccountId" },
    units: newReceipt("NOT VALID"),
  },
  {
    name: "promise_batch_action_transfer: the deposit leaves the balance",
    setup: (k) => {
      callArgs(OTHER, 3n)(k);
      k.env.promise_batch_create(BigInt(OTHER.length), 0n);
    },
    call: (k) => k.env.promise_batch_action_transfer(0n, 300n),
    units: merge({ base: 1 }, mem(16)),
    actions: { TRANSFER: F.transfer.sendNotSir },
    reserved: F.transfer.execution,
    check: (k) => {
      expect(k.l.receipts.receipts[0]!.actions).toEqual([{ type: "Transfer", deposit: 3n }]);
      expect(k.l.balance).toBe(DEFAULT_CONTEXT.accountBalance + DEFAULT_CONTEXT.attachedDeposit - 3n);
    },
  },
  {
    name: "promise_batch_action_transfer beyond the balance",
    setup: (k) => {
      callArgs(OTHER, 10n ** 30n)(k);
      k.env.promise_batch_create(BigInt(OTHER.length), 0n);
    },
    call: (k) => k.env.promise_batch_action_transfer(0n, 300n),
    error: { name: "BalanceExceeded" },
    units: merge({ base: 1 }, mem(16)),
    actions: { TRANSFER: F.transfer.sendNotSir },
    reserved: F.transfer.execution,
  },
  {
    name: "promise_create: receipt and function-call fees, the attached gas reserved",
    setup: callArgs(OTHER, 2n),
    call: (k) => k.env.promise_create(BigInt(OTHER.length), 0n, 2n, 100n, 2n, 200n, 300n, 10n * TGAS),
    result: 0n,
    units: merge(newReceipt(OTHER), functionCallHost),
    actions: {
      NEW_ACTION_RECEIPT: F.actionReceiptCreation.sendNotSir,
      FUNCTION_CALL_BASE: F.functionCallBase.sendNotSir,
      FUNCTION_CALL_BYTE: 4n * F.functionCallPerByte.sendNotSir,
    },
    reserved: F.actionReceiptCreation.execution + F.functionCallBase.execution + 4n * F.functionCallPerByte.execution + 10n * TGAS,
    check: (k) =>
      expect(k.l.receipts.receipts[0]!.actions).toEqual([{ type: "FunctionCall", methodName: "go", args: enc.encode("{}"), deposit: 2n, gas: 10n * TGAS }]),
  },
  {
    name: "promise_then on the current account: a data dependency from the first receipt",
    setup: (k) => {
      callArgs(OTHER)(k);
      k.env.promise_create(BigInt(OTHER.length), 0n, 2n, 100n, 2n, 200n, 300n, TGAS);
      k.put(400, CURRENT);
    },
    call: (k) => k.env.promise_then(0n, BigInt(CURRENT.length), 400n, 2n, 100n, 2n, 200n, 300n, TGAS),
    result: 1n,
    units: merge(newReceipt(CURRENT), functionCallHost),
    actions: {
      NEW_ACTION_RECEIPT: F.actionReceiptCreation.sendSir + F.dataReceiptCreationBase.sendNotSir + F.dataReceiptCreationBase.execution,
      FUNCTION_CALL_BASE: F.functionCallBase.sendSir,
      FUNCTION_CALL_BYTE: 4n * F.functionCallPerByte.sendSir,
    },
    reserved: F.actionReceiptCreation.execution + F.functionCallBase.execution + 4n * F.functionCallPerByte.execution + TGAS,
    check: (k) => {
      const [first, then] = k.l.receipts.receipts;
      expect(then!.inputDataIds).toHaveLength(1);
      expect(first!.outputDataReceivers).toEqual([{ dataId: then!.inputDataIds[0], receiverId: CURRENT }]);
    },
  },
  {
    name: "promise_and joins two promises",
    setup: (k) => {
      callArgs(OTHER)(k);
      k.env.promise_batch_create(BigInt(OTHER.length), 0n);
      k.env.promise_batch_create(BigInt(OTHER.length), 0n);
      k.put(500, new Uint8Array(new BigUint64Array([0n, 1n]).buffer));
    },
    call: (k) => k.env.promise_and(500n, 2n),
    result: 2n,
    units: merge({ base: 1, promise_and_base: 1, promise_and_per_promise: 16 }, mem(16)),
    check: (k) => expect(k.l.promises[2]).toEqual({ joint: [0, 1] }),
  },
  {
    name: "promise_return of a receipt",
    setup: (k) => {
      callArgs(OTHER)(k);
      k.env.promise_batch_create(BigInt(OTHER.length), 0n);
    },
    call: (k) => k.env.promise_return(0n),
    units: { base: 1, promise_return: 1 },
    check: (k) => expect(k.l.returnData).toEqual({ kind: "ReceiptIndex", index: 0 }),
  },
  {
    name: "promise_return of a missing promise",
    call: (k) => k.env.promise_return(3n),
    error: { name: "InvalidPromiseIndex", fields: { promise_idx: 3n } },
    units: { base: 1, promise_return: 1 },
  },
  {
    name: "promise_batch_create in a view",
    context: { isView: true },
    call: (k) => k.env.promise_batch_create(1n, 0n),
    error: { name: "ProhibitedInView", fields: { method_name: "promise_batch_create" } },
    units: { base: 1 },
  },
  {
    name: "promise_results_count",
    context: { promiseResults: [enc.encode("x"), null] },
    call: (k) => k.env.promise_results_count(),
    result: 2n,
    units: { base: 1 },
  },
  {
    name: "promise_result of a successful promise: data into a register, no per-byte fee",
    context: { promiseResults: [enc.encode("payload")] },
    call: (k) => k.env.promise_result(0n, 1n),
    result: 1n,
    units: { base: 1, write_register_base: 1 },
    check: (k) => expect(k.register(1n)).toEqual(enc.encode("payload")),
  },
  {
    name: "promise_result of a failed promise",
    context: { promiseResults: [null] },
    call: (k) => k.env.promise_result(0n, 1n),
    result: 2n,
    units: { base: 1 },
    check: (k) => expect(k.register(1n)).toBeUndefined(),
  },
  {
    name: "promise_result past the results",
    call: (k) => k.env.promise_result(0n, 1n),
    error: { name: "InvalidPromiseResultIndex", fields: { result_idx: 0n } },
    units: { base: 1 },
  },
];

const VALIDATOR = "validator.test.near";
const VALIDATORS: HostCase[] = [
  {
    name: "validator_stake of a validator",
    setup: (k) => k.put(0, VALIDATOR),
    call: (k) => k.env.validator_stake(BigInt(VALIDATOR.length), 0n, 64n),
    units: merge({ base: 1, validator_stake_base: 1 }, mem(VALIDATOR.length), decodeUtf8(VALIDATOR.length), toMemory(16)),
    check: u128At(64, 42n * 10n ** 24n),
  },
  {
    name: "validator_stake of another account is 0",
    setup: (k) => k.put(0, OTHER),
    call: (k) => k.env.validator_stake(BigInt(OTHER.length), 0n, 64n),
    units: merge({ base: 1, validator_stake_base: 1 }, mem(OTHER.length), decodeUtf8(OTHER.length), toMemory(16)),
    check: u128At(64, 0n),
  },
  {
    name: "validator_total_stake",
    call: (k) => k.env.validator_total_stake(64n),
    units: merge({ base: 1, validator_total_stake_base: 1 }, toMemory(16)),
    check: u128At(64, 42n * 10n ** 24n),
  },
];

const GROUPS: [string, HostCase[]][] = [
  ["registers", REGISTERS],
  ["context", CONTEXT],
  ["economics", ECONOMICS],
  ["math", MATH],
  ["logs, panics and return values", LOGS_AND_PANICS],
  ["storage", STORAGE],
  ["promises and promise results", PROMISES],
  ["validator", VALIDATORS],
];

describe.each(GROUPS)("host functions: %s (table)", (_group, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => runCase(c));
});
