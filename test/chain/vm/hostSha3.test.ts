/**
 * sha3_256 / sha3_384 / sha3_512 (protocol 87, `sha3_host_fns`): FIPS-202 vectors (the empty
 * string and "abc", NIST's SHA-3 examples; nearcore's SHA3_512_ABC is the same digest), the
 * charged costs (nearcore host.rs `sha3_generic`: base, input, byte × len, register write), and
 * the link failure at protocol 86.
 */
import { describe, expect, it } from "vitest";
import { runtimeParametersFor } from "../../../src/chain/runtime/parameters.js";
import { hostKit, U64_MAX } from "./hostKit.js";
import { returned, runAt } from "./protocolRun.js";
import { contract } from "./wat.js";
import { ALICE, openChain } from "../runtime/helpers.js";
import { deploy } from "./deploy.js";

const P87 = runtimeParametersFor(87);
const E = P87.wasm.extCosts;
const hex = (b: Uint8Array | undefined) => Buffer.from(b!).toString("hex");

const VECTORS = {
  sha3_256: {
    "": "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
    abc: "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
  },
  sha3_384: {
    "": "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004",
    abc: "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
  },
  sha3_512: {
    "": "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
    abc: "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
  },
} as const;
type Sha3 = keyof typeof VECTORS;
const NAMES = Object.keys(VECTORS) as Sha3[];
const DIGEST_BYTES: Record<Sha3, number> = { sha3_256: 32, sha3_384: 48, sha3_512: 64 };

describe("sha3 host functions at protocol 87", () => {
  it.each(NAMES.flatMap((name) => (["", "abc"] as const).map((input) => [name, input] as const)))(
    "%s(%j): the FIPS-202 digest in the register, base + input + byte × len + register write",
    (name, input) => {
      const k = hostKit({}, P87);
      const [len, ptr] = k.put(16, input);
      const gas = k.gasOf(() => k.env[name](len, ptr, 3n));
      expect(hex(k.register(3n))).toBe(VECTORS[name][input]);
      const n = BigInt(input.length);
      const expected =
        E[`${name}_base`] +
        E.read_memory_base +
        n * E.read_memory_byte +
        n * E[`${name}_byte`] +
        E.write_register_base +
        BigInt(DIGEST_BYTES[name]) * E.write_register_byte;
      expect(gas).toBe(expected);
    },
  );

  it("the costs are the keccak ones (87.yaml / parameters.yaml values)", () => {
    expect([E.sha3_256_base, E.sha3_256_byte]).toEqual([5_879_491_275n, 21_471_105n]);
    expect([E.sha3_384_base, E.sha3_384_byte, E.sha3_512_base, E.sha3_512_byte]).toEqual([5_811_388_236n, 36_649_701n, 5_811_388_236n, 36_649_701n]);
  });

  it("reads its input from a register when the length is u64::MAX (a million 'a': NIST's long vector)", () => {
    const k = hostKit({}, P87);
    k.l.writeRegister(1n, new Uint8Array(1_000_000).fill(0x61), false);
    k.env.sha3_256(U64_MAX, 1n, 2n);
    expect(hex(k.register(2n))).toBe("5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1");
  });

  it("is not a host function at protocol 86", () => {
    const k = hostKit({}, runtimeParametersFor(86));
    for (const name of NAMES) expect(k.env[name]).toBeUndefined();
  });
});

/** A contract hashing "abc" with `name` and returning the digest. */
const hashAbc = (name: Sha3) =>
  contract(
    `(import "env" "${name}" (func $h (param i64 i64 i64)))
     (import "env" "read_register" (func $read (param i64 i64)))
     (import "env" "register_len" (func $len (param i64) (result i64)))
     (import "env" "value_return" (func $ret (param i64 i64)))`,
    `(data (i32.const 0) "abc")
     (func (export "main")
       (call $h (i64.const 3) (i64.const 0) (i64.const 0))
       (call $read (i64.const 0) (i64.const 64))
       (call $ret (call $len (i64.const 0)) (i64.const 64)))`,
  );

describe("a contract importing sha3", () => {
  it.each(NAMES)("%s links and returns the digest at 87; at 86 it fails to link as an unknown import", (name) => {
    const code = hashAbc(name);
    expect(hex(returned(runAt(87, code)))).toBe(VECTORS[name].abc);
    const old = runAt(86, code);
    expect(old.error).toEqual({ kind: "LinkError", msg: "unknown or invalid import" });
    // The loading fee is charged before linking fails, as for any unknown import.
    expect(old.burntGas).toBe(runtimeParametersFor(86).wasm.extCosts.contract_loading_base + BigInt(code.length) * runtimeParametersFor(86).wasm.extCosts.contract_loading_bytes);
  });
});

describe("sha3 on a chain (view calls take the chain's parameter table)", () => {
  it("at protocol 87 a view call returns the digest; at 86 the contract does not link", async () => {
    const code = hashAbc("sha3_256");
    const at87 = await openChain({ protocolVersion: 87 });
    deploy(at87, ALICE, code);
    expect(at87.at(at87.head()).callFunction(ALICE, "main", new Uint8Array())).toEqual({
      ok: true,
      result: Uint8Array.from(Buffer.from(VECTORS.sha3_256.abc, "hex")),
      logs: [],
    });
    const at86 = await openChain({ protocolVersion: 86 });
    deploy(at86, ALICE, code);
    expect(at86.at(at86.head()).callFunction(ALICE, "main", new Uint8Array())).toEqual({
      ok: false,
      error: { ExecutionError: "Link Error: unknown or invalid import" },
      message: 'wasm execution failed with error: LinkError { msg: "unknown or invalid import" }',
      logs: [],
    });
  });
});
