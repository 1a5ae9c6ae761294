import { describe, expect, it } from "vitest";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { execFee } from "../../../src/chain/runtime/actionFees.js";
import { NEARCORE_RUNTIME_PARAMETERS as P } from "../../../src/chain/runtime/parameters.js";
import { ALICE, CAROL, NEAR, keyOf, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { contract } from "./wat.js";

const GAS = keyOf("gas key from a contract");
const KEY_BYTES = Buffer.concat([Buffer.of(GAS.publicKey.keyType), GAS.publicKey.data]);
const hex = (b: Uint8Array) => [...b].map((x) => `\\${x.toString(16).padStart(2, "0")}`).join("");
const u128 = (v: bigint) => {
  const b = Buffer.alloc(16);
  b.writeBigUInt64LE(v & 0xffff_ffff_ffff_ffffn, 0);
  b.writeBigUInt64LE(v >> 64n, 8);
  return b;
};
const FUNDS = NEAR / 4n;

/**
 * `add`: a batch to alice that adds the gas key (2 nonces) and funds it; `add_fc`: the same
 * key as a function-call gas key with an allowance (refused when the receipt is validated).
 */
const GAS_KEY_CONTRACT = contract(
  `(import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
   (import "env" "promise_batch_action_add_gas_key_with_full_access" (func $add (param i64 i64 i64 i64)))
   (import "env" "promise_batch_action_add_gas_key_with_function_call" (func $add_fc (param i64 i64 i64 i64 i64 i64 i64 i64 i64)))
   (import "env" "promise_batch_action_transfer_to_gas_key" (func $fund (param i64 i64 i64 i64)))`,
  `(data (i32.const 0) "${hex(KEY_BYTES)}")
   (data (i32.const 64) "${hex(u128(FUNDS))}")
   (data (i32.const 100) "${ALICE}")
   (func (export "add") (local $p i64)
     (local.set $p (call $create (i64.const ${ALICE.length}) (i64.const 100)))
     (call $add (local.get $p) (i64.const 33) (i64.const 0) (i64.const 2))
     (call $fund (local.get $p) (i64.const 33) (i64.const 0) (i64.const 64)))
   (func (export "add_fc") (local $p i64)
     (local.set $p (call $create (i64.const ${ALICE.length}) (i64.const 100)))
     (call $add_fc (local.get $p) (i64.const 33) (i64.const 0) (i64.const 2) (i64.const 64)
       (i64.const ${ALICE.length}) (i64.const 100) (i64.const 0) (i64.const 0)))`,
);

describe("gas-key host functions (gas_key_host_fns, protocol 85)", () => {
  it("a contract adds and funds a gas key; the receipt burns the same execution fees as a transaction's actions", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, GAS_KEY_CONTRACT);
    const status = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("add")])));
    expect(status.status).toEqual({ SuccessValue: "" });
    const key = chain.at(chain.head()).accessKey(ALICE, formatPublicKey(GAS.publicKey));
    expect(key).toEqual({ nonce: 0n, permission: { GasKeyFullAccess: { balance: FUNDS, numNonces: 2 } } });
    const nonces = chain.at(chain.head()).gasKeyNonces(ALICE, formatPublicKey(GAS.publicKey));
    expect(nonces).toHaveLength(2);
    // The batch's receipt (second receipt outcome) burns the actions' execution fees.
    const actions = [
      { type: "AddKey" as const, publicKey: GAS.publicKey, accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces: 2 } } } },
      { type: "TransferToGasKey" as const, publicKey: GAS.publicKey, deposit: FUNDS },
    ];
    const exec = P.fees.actionReceiptCreation.execution + actions.reduce((n, a) => n + execFee(P, a, ALICE), 0n);
    expect(BigInt(status.receipts_outcome[1]!.outcome.gas_burnt)).toBe(exec);
  });

  it("a function-call gas key with an allowance fails receipt validation as nearcore's GasKeyFunctionCallAllowanceNotAllowed", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, GAS_KEY_CONTRACT);
    const status = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("add_fc")])));
    expect(status.status).toEqual({
      Failure: {
        ActionError: { index: 0, kind: { NewReceiptValidationError: { ActionsValidation: "GasKeyFunctionCallAllowanceNotAllowed" } } },
      },
    });
  });

  it("is prohibited in views", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, GAS_KEY_CONTRACT);
    const view = chain.at(chain.head()).callFunction(ALICE, "add", new Uint8Array());
    expect(view).toMatchObject({ ok: false });
    expect(JSON.stringify(view)).toContain("ProhibitedInView");
  });
});
