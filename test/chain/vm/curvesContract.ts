import { contract } from "./wat.js";

/**
 * A WAT contract calling the curve host functions on its call arguments (copied to memory at
 * 0), each method returning what the host answered:
 * - bn_multiexp / bn_sum: the point the host wrote to register 1;
 * - bn_pairing, p256 (args: signature(64) ‖ key(33) ‖ prehash): the u64 result, 8 bytes LE;
 * - bls_<fn>: the output register when the host answers 0, else the status as 8 bytes LE;
 * - bls_pairing: the status, 8 bytes LE.
 */
export const CURVES = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "alt_bn128_g1_multiexp" (func $bn_multiexp (param i64 i64 i64)))
   (import "env" "alt_bn128_g1_sum" (func $bn_sum (param i64 i64 i64)))
   (import "env" "alt_bn128_pairing_check" (func $bn_pairing (param i64 i64) (result i64)))
   (import "env" "p256_verify" (func $p256 (param i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "bls12381_p1_sum" (func $p1_sum (param i64 i64 i64) (result i64)))
   (import "env" "bls12381_g2_multiexp" (func $g2_multiexp (param i64 i64 i64) (result i64)))
   (import "env" "bls12381_map_fp_to_g1" (func $map_fp (param i64 i64 i64) (result i64)))
   (import "env" "bls12381_p2_decompress" (func $p2_decompress (param i64 i64 i64) (result i64)))
   (import "env" "bls12381_pairing_check" (func $bls_pairing (param i64 i64) (result i64)))`,
  `(func $load (result i64)
     (call $input (i64.const 0))
     (call $read_register (i64.const 0) (i64.const 0))
     (call $register_len (i64.const 0)))
   (func $return_u64 (param $v i64)
     (i64.store (i32.const 60000) (local.get $v))
     (call $value_return (i64.const 8) (i64.const 60000)))
   (func $return_status_or_register (param $status i64)
     (if (i64.eqz (local.get $status))
       (then (call $value_return (i64.const -1) (i64.const 1)))
       (else (call $return_u64 (local.get $status)))))
   (func (export "bn_multiexp")
     (call $bn_multiexp (call $load) (i64.const 0) (i64.const 1))
     (call $value_return (i64.const -1) (i64.const 1)))
   (func (export "bn_sum")
     (call $bn_sum (call $load) (i64.const 0) (i64.const 1))
     (call $value_return (i64.const -1) (i64.const 1)))
   (func (export "bn_pairing") (call $return_u64 (call $bn_pairing (call $load) (i64.const 0))))
   (func (export "p256")
     (local $len i64)
     (local.set $len (call $load))
     (call $return_u64 (call $p256 (i64.const 64) (i64.const 0) (i64.sub (local.get $len) (i64.const 97)) (i64.const 97) (i64.const 33) (i64.const 64))))
   (func (export "bls_p1_sum") (call $return_status_or_register (call $p1_sum (call $load) (i64.const 0) (i64.const 1))))
   (func (export "bls_g2_multiexp") (call $return_status_or_register (call $g2_multiexp (call $load) (i64.const 0) (i64.const 1))))
   (func (export "bls_map_fp_to_g1") (call $return_status_or_register (call $map_fp (call $load) (i64.const 0) (i64.const 1))))
   (func (export "bls_p2_decompress") (call $return_status_or_register (call $p2_decompress (call $load) (i64.const 0) (i64.const 1))))
   (func (export "bls_pairing") (call $return_u64 (call $bls_pairing (call $load) (i64.const 0))))`,
);
