import { describe, expect, it } from "vitest";
import { UnknownAccountError } from "../../../src/chain/node.js";
import { ALICE, BOB, openChain } from "../runtime/helpers.js";
import { deploy } from "./deploy.js";
import { contract } from "./wat.js";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

const VIEWS = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "log_utf8" (func $log_utf8 (param i64 i64)))
   (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))
   (import "env" "predecessor_account_id" (func $predecessor (param i64)))
   (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))`,
  `(data (i32.const 0) "hello from view")
   (data (i32.const 64) "it broke \\"badly\\"")
   (func (export "echo")
     (call $input (i64.const 0))
     (call $read_register (i64.const 0) (i64.const 1024))
     (call $log_utf8 (i64.const 15) (i64.const 0))
     (call $value_return (call $register_len (i64.const 0)) (i64.const 1024)))
   (func (export "boom")
     (call $log_utf8 (i64.const 5) (i64.const 0))
     (call $panic_utf8 (i64.const 16) (i64.const 64)))
   (func (export "who") (call $predecessor (i64.const 0)))
   (func (export "write") (drop (call $storage_write (i64.const 1) (i64.const 0) (i64.const 1) (i64.const 0) (i64.const 0))))
   (func (export "trap") unreachable)
   (func (export "with_param") (param i32))`,
);

describe("Chain.callFunction (view calls)", () => {
  it("runs a method against a block's post-state and returns its value and logs", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, VIEWS);
    const out = chain.at(chain.head()).callFunction(ALICE, "echo", utf8('{"x":1}'));
    expect(out).toEqual({ ok: true, result: utf8('{"x":1}'), logs: ["hello from view"] });
  });

  it("answers nearcore's JSON and legacy text for every failure kind", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, VIEWS);
    const head = chain.head();
    const cases: [string, unknown, string, string[]][] = [
      ["nope", { MethodResolveError: "MethodNotFound" }, "MethodResolveError(MethodNotFound)", []],
      ["", { MethodResolveError: "MethodEmptyName" }, "MethodResolveError(MethodEmptyName)", []],
      ["with_param", { MethodResolveError: "MethodInvalidSignature" }, "MethodResolveError(MethodInvalidSignature)", []],
      [
        "boom",
        { ExecutionError: 'Smart contract panicked: it broke "badly"' },
        'HostError(GuestPanic { panic_msg: "it broke \\"badly\\"" })',
        ["hello"],
      ],
      [
        "who",
        { ExecutionError: "predecessor_account_id is not allowed in view calls" },
        'HostError(ProhibitedInView { method_name: "predecessor_account_id" })',
        [],
      ],
      [
        "write",
        { ExecutionError: "storage_write is not allowed in view calls" },
        'HostError(ProhibitedInView { method_name: "storage_write" })',
        [],
      ],
      ["trap", { ExecutionError: "WebAssembly trap: An `unreachable` opcode was executed." }, "WasmTrap(Unreachable)", []],
    ];
    for (const [method, json, debug, logs] of cases) {
      const out = chain.at(head).callFunction(ALICE, method, new Uint8Array());
      expect(out, method).toEqual({ ok: false, error: json, message: `wasm execution failed with error: ${debug}`, logs });
    }
  });

  it("reports CodeDoesNotExist for an account without code and throws for a missing account", async () => {
    const chain = await openChain();
    const out = chain.at(chain.head()).callFunction(BOB, "anything", new Uint8Array());
    expect(out).toEqual({
      ok: false,
      error: { CompilationError: { CodeDoesNotExist: { account_id: BOB } } },
      message: `wasm execution failed with error: CompilationError(CodeDoesNotExist { account_id: AccountId("${BOB}") })`,
      logs: [],
    });
    expect(() => chain.at(chain.head()).callFunction("nobody.test.near", "x", new Uint8Array())).toThrow(UnknownAccountError);
  });

  it("reads the state of the block asked for", async () => {
    const chain = await openChain();
    const before = chain.head();
    deploy(chain, ALICE, VIEWS);
    expect(chain.at(before).callFunction(ALICE, "echo", utf8("a")).ok).toBe(false);
    expect(text((chain.at(chain.head()).callFunction(ALICE, "echo", utf8("a")) as { result: Uint8Array }).result)).toBe("a");
  });
});
