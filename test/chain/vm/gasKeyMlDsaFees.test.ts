/**
 * fix_ml_dsa_cost_charging, VM part (protocol 87): the gas-key host functions price their exec
 * (storage) fee on the key's trie id length (33 bytes for an ML-DSA-65 key, stored by its hash)
 * instead of its borsh length (1,953); the send fee stays on the borsh length (nearcore host.rs
 * `gas_key_exec_pk_len`). Keys whose two lengths agree (ed25519) cost the same at 86 and 87.
 */
import { describe, expect, it } from "vitest";
import { mlDsa65FromSeed } from "@shardkit/primitives/mlDsa65";
import { runtimeParametersFor } from "../../../src/chain/runtime/parameters.js";
import { hostErrorOf, hostKit, U64_MAX, u128 } from "./hostKit.js";
import { keyOf } from "../runtime/helpers.js";

const ML_DSA = mlDsa65FromSeed(new Uint8Array(32).fill(5)).publicKey;
const ED25519 = keyOf("gas key fees").publicKey;
const borsh = (k: { keyType: number; data: Uint8Array }) => Uint8Array.from([k.keyType, ...k.data]);
const RECEIVER = "alice.test.near";
const NONCES = 3n;

type GasKeyCall = "add_full_access" | "add_function_call" | "transfer";

/** Used and burnt gas of one gas-key host call on a fresh batch, at `version`. */
function gasOf(version: number, key: Uint8Array, what: GasKeyCall) {
  const k = hostKit({}, runtimeParametersFor(version));
  const [rl, rp] = k.put(0, RECEIVER);
  const [kl, kp] = k.put(100, key);
  k.put(3000, u128(0n));
  const idx = k.env.promise_batch_create(rl, rp);
  const used = k.l.gas.usedGas;
  const burnt = k.l.gas.burntGas;
  if (what === "add_full_access") k.env.promise_batch_action_add_gas_key_with_full_access(idx, kl, kp, NONCES);
  else if (what === "add_function_call") k.env.promise_batch_action_add_gas_key_with_function_call(idx, kl, kp, NONCES, 3000n, rl, rp, 0n, 0n);
  else k.env.promise_batch_action_transfer_to_gas_key(idx, kl, kp, 3000n);
  return { used: k.l.gas.usedGas - used, burnt: k.l.gas.burntGas - burnt };
}

const EXEC_PER_BYTE = runtimeParametersFor(87).fees.gasKeyPerByte.execution;

describe("gas-key host functions with an ML-DSA-65 key, protocol 86 vs 87", () => {
  it("the key's lengths: 1,953 bytes of borsh, 33 as stored", () => {
    expect(borsh(ML_DSA).length).toBe(1953);
  });

  it.each([
    ["add_full_access", NONCES],
    ["add_function_call", NONCES],
    ["transfer", 1n],
  ] as const)("%s: 87 reserves (1,953 − 33) × gas_key_byte exec × %s less; the burnt (send) part is unchanged", (what, rows) => {
    const at86 = gasOf(86, borsh(ML_DSA), what);
    const at87 = gasOf(87, borsh(ML_DSA), what);
    expect(at87.burnt).toBe(at86.burnt);
    expect(at86.used - at87.used).toBe(EXEC_PER_BYTE * (1953n - 33n) * rows);
  });

  it.each(["add_full_access", "add_function_call", "transfer"] as const)("%s with an ed25519 key costs the same at 86 and 87", (what) => {
    expect(gasOf(87, borsh(ED25519), what)).toEqual(gasOf(86, borsh(ED25519), what));
  });
});

describe("the key's length the fees use", () => {
  it("a key that does not decode is priced as 0 bytes (nearcore `pk_len`), then fails with InvalidPublicKey", () => {
    const bad = Uint8Array.of(9, ...new Uint8Array(32));
    const k = hostKit({}, runtimeParametersFor(87));
    const [rl, rp] = k.put(0, RECEIVER);
    const [kl, kp] = k.put(100, bad);
    k.put(3000, u128(0n));
    const idx = k.env.promise_batch_create(rl, rp);
    const burnt = k.l.gas.burntGas;
    expect(hostErrorOf(() => k.env.promise_batch_action_transfer_to_gas_key(idx, kl, kp, 3000n))).toEqual({ name: "InvalidPublicKey" });
    const valid = gasOf(87, borsh(ED25519), "transfer");
    const perByte = runtimeParametersFor(87).fees.gasKeyPerByte;
    expect(valid.burnt - (k.l.gas.burntGas - burnt)).toBe(perByte.sendNotSir * 33n);
  });

  it("a key read from a register (length u64::MAX) is priced on its own length", () => {
    const k = hostKit({}, runtimeParametersFor(87));
    const [rl, rp] = k.put(0, RECEIVER);
    k.l.writeRegister(4n, borsh(ML_DSA), false);
    const idx = k.env.promise_batch_create(rl, rp);
    const used = k.l.gas.usedGas;
    k.env.promise_batch_action_add_gas_key_with_full_access(idx, U64_MAX, 4n, NONCES);
    const fromMemory = gasOf(87, borsh(ML_DSA), "add_full_access");
    const P = runtimeParametersFor(87).wasm.extCosts;
    // Only the input's cost differs: a register read instead of a memory read.
    const memoryRead = P.read_memory_base + 1953n * P.read_memory_byte;
    const registerRead = P.read_register_base + 1953n * P.read_register_byte;
    expect(k.l.gas.usedGas - used).toBe(fromMemory.used - memoryRead + registerRead);
  });
});
