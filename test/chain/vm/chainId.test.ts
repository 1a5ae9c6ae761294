import { describe, expect, it } from "vitest";
import { ALICE, CAROL, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { E, hostKit } from "./hostKit.js";
import { contract } from "./wat.js";

const b64 = (s: string): string => Buffer.from(s).toString("base64");

/** `id`: returns chain_id (as a function call and as a view). */
const CHAIN_ID = contract(
  `(import "env" "chain_id" (func $chain_id (param i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))`,
  `(func (export "id") (call $chain_id (i64.const 0)) (call $value_return (i64.const -1) (i64.const 0)))`,
);

describe("chain_id (NEP-638, protocol 85)", () => {
  it("writes the chain id to the register for base and the register write", () => {
    const k = hostKit({ chainId: "testnet" });
    const gas = k.gasOf(() => k.env.chain_id(3n));
    expect(new TextDecoder().decode(k.register(3n))).toBe("testnet");
    expect(gas).toBe(E.base + E.write_register_base + 7n * E.write_register_byte);
  });

  it("answers the genesis chain id in receipts and in views", async () => {
    const chain = await openChain({ chainId: "yield-net" });
    deploy(chain, ALICE, CHAIN_ID);
    expect(outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("id")]))).status).toEqual({ SuccessValue: b64("yield-net") });
    const view = chain.at(chain.head()).callFunction(ALICE, "id", new Uint8Array());
    expect(view).toMatchObject({ ok: true, result: new TextEncoder().encode("yield-net") });
  });
});
