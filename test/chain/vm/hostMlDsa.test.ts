/**
 * ml_dsa_verify (protocol 87, `ml_dsa_verify_host_fn`): the cases of nearcore's
 * logic/tests/ml_dsa_verify.rs (results, charged costs, MlDsaVerifyInvalidInput messages) over
 * a key pair from a fixed seed signed by the repo's ML-DSA-65 signer, and the link failure at 86.
 */
import { describe, expect, it } from "vitest";
import { mlDsa65FromSeed } from "@shardkit/primitives/mlDsa65";
import { runtimeParametersFor } from "../../../src/chain/runtime/parameters.js";
import { HostErrorThrow } from "../../../src/chain/vm/HostError.js";
import { hostKit, U64_MAX } from "./hostKit.js";
import { returned, runAt } from "./protocolRun.js";
import { contract } from "./wat.js";

const P87 = runtimeParametersFor(87);
const E = P87.wasm.extCosts;
const PAIR = mlDsa65FromSeed(new Uint8Array(32).fill(0x42));
const KEY = PAIR.publicKey.data;
const MESSAGE = new Uint8Array(32).fill(7);
const SIGNATURE = PAIR.sign(MESSAGE);
const readMem = (bytes: number): bigint => E.read_memory_base + BigInt(bytes) * E.read_memory_byte;
const flip = (b: Uint8Array, i: number, mask = 1) => Uint8Array.from(b, (x, j) => (j === i ? x ^ mask : x));

function verify(signature: Uint8Array, message: Uint8Array, key: Uint8Array, sigLen = signature.length, keyLen = key.length) {
  const k = hostKit({}, P87);
  const [, sp] = k.put(0, signature);
  const [ml, mp] = k.put(4096, message);
  const [, kp] = k.put(8192, key);
  let result: bigint | undefined;
  let error;
  const gas = k.gasOf(() => {
    try {
      result = k.env.ml_dsa_verify(BigInt(sigLen), sp, ml, mp, BigInt(keyLen), kp);
    } catch (e) {
      if (!(e instanceof HostErrorThrow)) throw e;
      error = e.hostError; // charged up to the failure, as nearcore's outcome keeps it
    }
  });
  return { result, gas, error };
}

const FULL = E.ml_dsa_verify_base + readMem(3309) + readMem(32) + readMem(1952) + 32n * E.ml_dsa_verify_byte;

describe("ml_dsa_verify at protocol 87", () => {
  it("sizes and costs: 3,309-byte signature, 1,952-byte key; 540 Ggas + 11 Mgas per message byte", () => {
    expect([SIGNATURE.length, KEY.length]).toEqual([3309, 1952]);
    expect([E.ml_dsa_verify_base, E.ml_dsa_verify_byte]).toEqual([540_000_000_000n, 11_000_000n]);
  });

  it.each([
    ["a valid signature", SIGNATURE, MESSAGE, KEY, 1n],
    ["a tampered message", SIGNATURE, flip(MESSAGE, 0), KEY, 0n],
    ["a tampered signature", flip(SIGNATURE, 100, 0xff), MESSAGE, KEY, 0n],
    ["another key", SIGNATURE, MESSAGE, flip(KEY, 0), 0n],
    ["an all-zero key of the right size: 0, not an error", SIGNATURE, MESSAGE, new Uint8Array(1952), 0n],
  ])("%s", (_name, signature, message, key, result) => {
    const out = verify(signature, message, key);
    expect(out.error).toBeUndefined();
    expect(out.result).toBe(result);
    expect(out.gas).toBe(FULL);
  });

  it("a signature of another length is MlDsaVerifyInvalidInput before the message is read", () => {
    const short = verify(SIGNATURE, MESSAGE, KEY, 3308);
    expect(short.error).toEqual({
      name: "MlDsaVerifyInvalidInput",
      fields: { msg: "invalid signature length: expected the input of 3309 bytes, but 3308 was given" },
    });
    expect(short.gas).toBe(E.ml_dsa_verify_base + readMem(3308));
    const empty = verify(new Uint8Array(0), MESSAGE, KEY);
    expect(empty.error).toEqual({
      name: "MlDsaVerifyInvalidInput",
      fields: { msg: "invalid signature length: expected the input of 3309 bytes, but 0 was given" },
    });
    expect(empty.gas).toBe(E.ml_dsa_verify_base + readMem(0));
  });

  it("a key of another length is MlDsaVerifyInvalidInput after the message and its byte cost", () => {
    const out = verify(SIGNATURE, MESSAGE, KEY, 3309, 1951);
    expect(out.error).toEqual({
      name: "MlDsaVerifyInvalidInput",
      fields: { msg: "invalid key length: expected the input of 1952 bytes, but 1951 was given" },
    });
    expect(out.gas).toBe(E.ml_dsa_verify_base + readMem(3309) + readMem(32) + 32n * E.ml_dsa_verify_byte + readMem(1951));
  });

  it("reads every input from a register when its length is u64::MAX", () => {
    const k = hostKit({}, P87);
    k.l.writeRegister(1n, SIGNATURE, false);
    k.l.writeRegister(2n, MESSAGE, false);
    k.l.writeRegister(3n, KEY, false);
    let result: bigint | undefined;
    const gas = k.gasOf(() => (result = k.env.ml_dsa_verify(U64_MAX, 1n, U64_MAX, 2n, U64_MAX, 3n)));
    expect(result).toBe(1n);
    const bytes = BigInt(3309 + 32 + 1952);
    expect(gas).toBe(E.ml_dsa_verify_base + 3n * E.read_register_base + bytes * E.read_register_byte + 32n * E.ml_dsa_verify_byte);
  });

  it("is not a host function at protocol 86", () => {
    expect(hostKit({}, runtimeParametersFor(86)).env.ml_dsa_verify).toBeUndefined();
  });
});

const hexData = (b: Uint8Array) => [...b].map((x) => `\\${x.toString(16).padStart(2, "0")}`).join("");
/** nearcore's end-to-end layout (ml_dsa_verify tests: signature at 0, message at 4096, key at 8192), the result returned as a u64. */
const VERIFIER = contract(
  `(import "env" "ml_dsa_verify" (func $verify (param i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "value_return" (func $ret (param i64 i64)))`,
  `(data (i32.const 0) "${hexData(SIGNATURE)}")
   (data (i32.const 4096) "${hexData(MESSAGE)}")
   (data (i32.const 8192) "${hexData(KEY)}")
   (func (export "main")
     (i64.store (i32.const 12288)
       (call $verify (i64.const 3309) (i64.const 0) (i64.const 32) (i64.const 4096) (i64.const 1952) (i64.const 8192)))
     (call $ret (i64.const 8) (i64.const 12288)))`,
);

describe("a contract importing ml_dsa_verify", () => {
  it("verifies at 87 and fails to link at 86 as an unknown import", () => {
    expect(Buffer.from(returned(runAt(87, VERIFIER))).readBigUInt64LE(0)).toBe(1n);
    expect(runAt(86, VERIFIER).error).toEqual({ kind: "LinkError", msg: "unknown or invalid import" });
  });
});
