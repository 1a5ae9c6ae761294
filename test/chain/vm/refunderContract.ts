import { BOB, CAROL } from "../runtime/helpers.js";
import { contract } from "./wat.js";

/**
 * A contract of promise_set_refund_to. `send`: calls BOB's method named by the input with 1000
 * yoctoNEAR and 5 Tgas, sets CAROL as the receipt's refund_to and returns the promise; `who`:
 * returns refund_to_account_id; `fail`: panics.
 */
export const REFUNDER = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "panic" (func $panic))
   (import "env" "promise_create" (func $promise_create (param i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_set_refund_to" (func $set_refund_to (param i64 i64 i64)))
   (import "env" "promise_return" (func $promise_return (param i64)))
   (import "env" "refund_to_account_id" (func $refund_to_account_id (param i64)))`,
  `(data (i32.const 0) "${BOB}")
   (data (i32.const 32) "${CAROL}")
   (data (i32.const 64) "\\e8\\03")
   (func (export "send")
     (local $p i64)
     (call $input (i64.const 1))
     (call $read_register (i64.const 1) (i64.const 1024))
     (local.set $p (call $promise_create (i64.const ${BOB.length}) (i64.const 0) (call $register_len (i64.const 1)) (i64.const 1024)
       (i64.const 0) (i64.const 0) (i64.const 64) (i64.const 5000000000000)))
     (call $set_refund_to (local.get $p) (i64.const ${CAROL.length}) (i64.const 32))
     (call $promise_return (local.get $p)))
   (func (export "who")
     (call $refund_to_account_id (i64.const 0))
     (call $value_return (i64.const -1) (i64.const 0)))
   (func (export "fail") (call $panic))`,
);
