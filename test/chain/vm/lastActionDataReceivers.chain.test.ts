import { describe, expect, it } from "vitest";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../../src/chain/runtime/parameters.js";
import { ALICE, BOB, CAROL, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { PROBE } from "./probeContract.js";
import { contract } from "./wat.js";

const b64 = (s: string): string => Buffer.from(s).toString("base64");

/** batch_two(receiver): one receipt with leaf("ping") and leaf("pong") on receiver, then receiver's cb. */
const BATCHER = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "promise_batch_create" (func $batch_create (param i64 i64) (result i64)))
   (import "env" "promise_batch_action_function_call" (func $fc (param i64 i64 i64 i64 i64 i64 i64)))
   (import "env" "promise_then" (func $promise_then (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_return" (func $promise_return (param i64)))`,
  `(data (i32.const 0) "leaf")
   (data (i32.const 8) "ping")
   (data (i32.const 16) "pong")
   (data (i32.const 24) "cb")
   (data (i32.const 32) "\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00")
   (func (export "batch_two")
     (local $p i64)
     (call $input (i64.const 3))
     (local.set $p (call $batch_create (i64.const -1) (i64.const 3)))
     (call $fc (local.get $p) (i64.const 4) (i64.const 0) (i64.const 4) (i64.const 8) (i64.const 32) (i64.const 20000000000000))
     (call $fc (local.get $p) (i64.const 4) (i64.const 0) (i64.const 4) (i64.const 16) (i64.const 32) (i64.const 20000000000000))
     (call $promise_return (call $promise_then (local.get $p) (i64.const -1) (i64.const 3) (i64.const 2) (i64.const 24)
       (i64.const 0) (i64.const 0) (i64.const 32) (i64.const 20000000000000))))`,
);

describe("a [FunctionCall, FunctionCall] receipt whose result feeds a callback", () => {
  it("only the last call's value_return pays data-receipt bytes and becomes the callback's input", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, BATCHER);
    deploy(chain, BOB, PROBE);
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("batch_two", BOB)])));
    const [batch] = o.receipts_outcome;
    const [leavesId, cbId] = batch!.outcome.receipt_ids;
    const byId = new Map(o.receipts_outcome.map((r) => [r.id, r]));
    const leaves = byId.get(leavesId!)!;
    expect(leaves.outcome.executor_id).toBe(BOB);
    expect(leaves.outcome.status).toEqual({ SuccessValue: b64("pong") });
    expect(byId.get(cbId!)!.outcome.logs).toEqual(["pong"]);
    // The callback lives on the leaves' account: sir send fee + execution fee, per byte, once.
    const perByte = NEARCORE_RUNTIME_PARAMETERS.fees.dataReceiptCreationPerByte;
    const bytes = leaves.outcome.metadata.gas_profile!.filter((e) => e.cost === "NEW_DATA_RECEIPT_BYTE");
    expect(bytes.map((e) => BigInt(e.gas_used))).toEqual([4n * (perByte.sendSir + perByte.execution)]);
  });
});
