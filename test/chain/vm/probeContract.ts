import { contract } from "./wat.js";

/**
 * A small contract for chain-level tests, in WAT. Methods:
 *  - leaf: returns its input;  fail: panics "leaf failed"
 *  - fork(receiver): leaf("ping") on receiver, then cb on itself; returns cb's result
 *  - fork_fail(receiver): the same with fail instead of leaf
 *  - join(receiver): leaf("ping") and fail on receiver, joined, then cb; returns cb's result
 *  - cb: logs each promise result (its bytes, or "failed") and returns the result count
 *  - put: writes "key" = "value";  write_then_panic: writes, logs "about to fail", panics
 *  - send(receiver): transfers the attached deposit on to receiver
 */
export const PROBE = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "current_account_id" (func $current (param i64)))
   (import "env" "attached_deposit" (func $attached_deposit (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "log_utf8" (func $log (param i64 i64)))
   (import "env" "panic" (func $panic))
   (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))
   (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_create" (func $promise_create (param i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_then" (func $promise_then (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_and" (func $promise_and (param i64 i64) (result i64)))
   (import "env" "promise_batch_create" (func $batch_create (param i64 i64) (result i64)))
   (import "env" "promise_batch_action_transfer" (func $transfer (param i64 i64)))
   (import "env" "promise_results_count" (func $results_count (result i64)))
   (import "env" "promise_result" (func $result (param i64 i64) (result i64)))
   (import "env" "promise_return" (func $promise_return (param i64)))`,
  `(data (i32.const 0) "leaf")
   (data (i32.const 8) "fail")
   (data (i32.const 16) "cb")
   (data (i32.const 24) "ping")
   (data (i32.const 32) "failed")
   (data (i32.const 48) "leaf failed")
   (data (i32.const 64) "key")
   (data (i32.const 72) "value")
   (data (i32.const 80) "about to fail")
   (func (export "leaf") (call $input (i64.const 0)) (call $value_return (i64.const -1) (i64.const 0)))
   (func (export "fail") (call $panic_utf8 (i64.const 11) (i64.const 48)))
   (func $fork_to (param $method i64) (param $args_len i64)
     (local $p i64)
     (call $input (i64.const 3))
     (call $current (i64.const 2))
     (local.set $p (call $promise_create (i64.const -1) (i64.const 3) (i64.const 4) (local.get $method)
       (local.get $args_len) (i64.const 24) (i64.const 512) (i64.const 20000000000000)))
     (local.set $p (call $promise_then (local.get $p) (i64.const -1) (i64.const 2) (i64.const 2) (i64.const 16)
       (i64.const 0) (i64.const 0) (i64.const 512) (i64.const 20000000000000)))
     (call $promise_return (local.get $p)))
   (func (export "fork") (call $fork_to (i64.const 0) (i64.const 4)))
   (func (export "fork_fail") (call $fork_to (i64.const 8) (i64.const 0)))
   (func (export "join")
     (local $p i64)
     (call $input (i64.const 3))
     (call $current (i64.const 2))
     (i64.store (i32.const 600) (call $promise_create (i64.const -1) (i64.const 3) (i64.const 4) (i64.const 0)
       (i64.const 4) (i64.const 24) (i64.const 512) (i64.const 20000000000000)))
     (i64.store (i32.const 608) (call $promise_create (i64.const -1) (i64.const 3) (i64.const 4) (i64.const 8)
       (i64.const 0) (i64.const 0) (i64.const 512) (i64.const 20000000000000)))
     (local.set $p (call $promise_and (i64.const 600) (i64.const 2)))
     (local.set $p (call $promise_then (local.get $p) (i64.const -1) (i64.const 2) (i64.const 2) (i64.const 16)
       (i64.const 0) (i64.const 0) (i64.const 512) (i64.const 20000000000000)))
     (call $promise_return (local.get $p)))
   (func (export "cb")
     (local $i i64) (local $n i64)
     (local.set $n (call $results_count))
     (block $done
       (loop $next
         (br_if $done (i64.ge_u (local.get $i) (local.get $n)))
         (if (i64.eq (call $result (local.get $i) (i64.const 1)) (i64.const 1))
           (then
             (call $read_register (i64.const 1) (i64.const 2048))
             (call $log (call $register_len (i64.const 1)) (i64.const 2048)))
           (else (call $log (i64.const 6) (i64.const 32))))
         (local.set $i (i64.add (local.get $i) (i64.const 1)))
         (br $next)))
     (i64.store8 (i32.const 2100) (i64.add (i64.const 48) (local.get $n)))
     (call $value_return (i64.const 1) (i64.const 2100)))
   (func (export "put") (drop (call $storage_write (i64.const 3) (i64.const 64) (i64.const 5) (i64.const 72) (i64.const 0))))
   (func (export "write_then_panic")
     (drop (call $storage_write (i64.const 3) (i64.const 64) (i64.const 5) (i64.const 72) (i64.const 0)))
     (call $log (i64.const 13) (i64.const 80))
     (call $panic))
   (func (export "send")
     (call $input (i64.const 3))
     (call $attached_deposit (i64.const 700))
     (call $transfer (call $batch_create (i64.const -1) (i64.const 3)) (i64.const 700)))`,
);
