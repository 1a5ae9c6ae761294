import { contract } from "./wat.js";

/**
 * A yield/resume contract in WAT, shaped like the chain-signatures MPC signer. Methods:
 *  - request: yields "on_resume" (20 Tgas, its input as the callback's arguments), keeps the
 *    data id under storage key "id" and returns the yield's promise (the transaction's result
 *    is the callback's);
 *  - leaf: request with a 5 Tgas callback (for PROBE's fork, which gives leaf 20 Tgas);
 *  - respond: resumes the kept id with its input as the payload; returns "1" or "0" (the
 *    host's answer);
 *  - resume_id: resumes the data id given as its input (32 bytes) with "forged"; returns "1"/"0";
 *  - request_and_respond: yields and resumes with "early" in the same call; returns "1"/"0";
 *  - on_resume: logs and returns the payload ("resumed"), or logs "timed out" and returns
 *    "timeout" when the promise result is Failed.
 */
export const YIELDER = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "log_utf8" (func $log (param i64 i64)))
   (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
   (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
   (import "env" "promise_return" (func $promise_return (param i64)))
   (import "env" "promise_result" (func $result (param i64 i64) (result i64)))
   (import "env" "promise_yield_create" (func $yield_create (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_yield_resume" (func $yield_resume (param i64 i64 i64 i64) (result i32)))`,
  `(data (i32.const 0) "on_resume")
   (data (i32.const 16) "id")
   (data (i32.const 24) "resumed")
   (data (i32.const 32) "timed out")
   (data (i32.const 48) "timeout")
   (data (i32.const 56) "early")
   (data (i32.const 64) "forged")
   ;; Yields on_resume with the input as its arguments; the data id goes to register 0 and storage.
   (func $yield (result i64) (call $yield_with_gas (i64.const 20000000000000)))
   (func $yield_with_gas (param $gas i64) (result i64)
     (local $p i64)
     (call $input (i64.const 1))
     (local.set $p (call $yield_create (i64.const 9) (i64.const 0) (i64.const -1) (i64.const 1)
       (local.get $gas) (i64.const 0) (i64.const 0)))
     (drop (call $storage_write (i64.const 2) (i64.const 16) (i64.const -1) (i64.const 0) (i64.const 5)))
     (local.get $p))
   ;; Returns "1" or "0".
   (func $answer (param $r i32)
     (i32.store8 (i32.const 100) (i32.add (i32.const 48) (local.get $r)))
     (call $value_return (i64.const 1) (i64.const 100)))
   (func (export "request") (call $promise_return (call $yield)))
   (func (export "leaf") (call $promise_return (call $yield_with_gas (i64.const 5000000000000))))
   (func (export "respond")
     (drop (call $storage_read (i64.const 2) (i64.const 16) (i64.const 2)))
     (call $input (i64.const 1))
     (call $read_register (i64.const 1) (i64.const 1024))
     (call $answer (call $yield_resume (i64.const -1) (i64.const 2) (call $register_len (i64.const 1)) (i64.const 1024))))
   (func (export "resume_id")
     (call $input (i64.const 1))
     (call $answer (call $yield_resume (i64.const -1) (i64.const 1) (i64.const 6) (i64.const 64))))
   (func (export "request_and_respond")
     (drop (call $yield))
     (call $answer (call $yield_resume (i64.const -1) (i64.const 0) (i64.const 5) (i64.const 56))))
   (func (export "on_resume")
     (if (i64.eq (call $result (i64.const 0) (i64.const 3)) (i64.const 1))
       (then
         (call $log (i64.const 7) (i64.const 24))
         (call $value_return (i64.const -1) (i64.const 3)))
       (else
         (call $log (i64.const 9) (i64.const 32))
         (call $value_return (i64.const 7) (i64.const 48)))))`,
);

/**
 * The yield-id variant (protocol 85 YieldWithId) in WAT. Methods:
 *  - request_id: input = the yield id (32 bytes, else YieldIdMalformed); yields "on_resume" (20 Tgas, no arguments) under
 *    that id and returns its promise, or returns "dup" when the host answers u64::MAX (a yield
 *    with that id is pending);
 *  - respond_id: input = a 32-byte yield id then the payload; resumes by id, returns "1"/"0";
 *  - on_resume: as YIELDER's (the payload, or "timeout");
 *  - give_one: input = an account id; calls its `noop` with 1 yoctoNEAR attached (5 Tgas);
 *  - noop: does nothing.
 */
export const YIELD_ID = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "log_utf8" (func $log (param i64 i64)))
   (import "env" "promise_return" (func $promise_return (param i64)))
   (import "env" "promise_result" (func $result (param i64 i64) (result i64)))
   (import "env" "promise_create" (func $promise_create (param i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_yield_create_with_id" (func $yield_create_with_id (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_yield_resume_with_yield_id" (func $yield_resume_with_id (param i64 i64 i64 i64) (result i32)))`,
  `(data (i32.const 0) "on_resume")
   (data (i32.const 24) "resumed")
   (data (i32.const 32) "timed out")
   (data (i32.const 48) "timeout")
   (data (i32.const 64) "dup")
   (data (i32.const 72) "noop")
   (data (i32.const 80) "\\01")
   ;; the input in register 1 and at 1024
   (func $read_input (result i64)
     (call $input (i64.const 1))
     (call $read_register (i64.const 1) (i64.const 1024))
     (call $register_len (i64.const 1)))
   (func (export "request_id")
     (local $p i64)
     (local $n i64)
     (local.set $n (call $read_input))
     ;; amount 0 (the 16 zero bytes at 112), the whole input as the yield id
     (local.set $p (call $yield_create_with_id (i64.const 9) (i64.const 0) (i64.const 0) (i64.const 0)
       (i64.const 112) (i64.const 20000000000000) (i64.const 0) (local.get $n) (i64.const 1024)))
     (if (i64.eq (local.get $p) (i64.const -1))
       (then (call $value_return (i64.const 3) (i64.const 64)))
       (else (call $promise_return (local.get $p)))))
   (func (export "respond_id")
     (local $n i64)
     (local.set $n (call $read_input))
     (i32.store8 (i32.const 100) (i32.add (i32.const 48)
       (call $yield_resume_with_id (i64.const 32) (i64.const 1024) (i64.sub (local.get $n) (i64.const 32)) (i64.const 1056))))
     (call $value_return (i64.const 1) (i64.const 100)))
   (func (export "give_one")
     (local $n i64)
     (local.set $n (call $read_input))
     (i64.store (i32.const 80) (i64.const 1))
     (drop (call $promise_create (local.get $n) (i64.const 1024) (i64.const 4) (i64.const 72) (i64.const 0) (i64.const 0)
       (i64.const 80) (i64.const 5000000000000))))
   (func (export "noop"))
   (func (export "on_resume")
     (if (i64.eq (call $result (i64.const 0) (i64.const 3)) (i64.const 1))
       (then
         (call $log (i64.const 7) (i64.const 24))
         (call $value_return (i64.const -1) (i64.const 3)))
       (else
         (call $log (i64.const 9) (i64.const 32))
         (call $value_return (i64.const 7) (i64.const 48)))))`,
);
