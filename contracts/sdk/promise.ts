// Promises, batch actions and promise results.
import * as env from "./env";
import { readRegister, utf8 } from "./near";
import { U128 } from "./u128";

export const TGAS: u64 = 1_000_000_000_000;
const REGISTER: u64 = 0;

export function promiseCreate(accountId: string, method: string, args: string, deposit: U128, gas: u64): u64 {
  const a = utf8(accountId), m = utf8(method), g = utf8(args);
  return env.promise_create(<u64>a.length, <u64>a.dataStart, <u64>m.length, <u64>m.dataStart, <u64>g.length, <u64>g.dataStart, <u64>deposit.toPtr(), gas);
}

export function promiseThen(after: u64, accountId: string, method: string, args: string, deposit: U128, gas: u64): u64 {
  const a = utf8(accountId), m = utf8(method), g = utf8(args);
  return env.promise_then(after, <u64>a.length, <u64>a.dataStart, <u64>m.length, <u64>m.dataStart, <u64>g.length, <u64>g.dataStart, <u64>deposit.toPtr(), gas);
}

export function promiseAnd(indices: u64[]): u64 {
  const buf = new StaticArray<u64>(indices.length);
  for (let i = 0; i < indices.length; i++) buf[i] = indices[i];
  return env.promise_and(<u64>changetype<usize>(buf), <u64>indices.length);
}

export function batchCreate(accountId: string): u64 {
  const a = utf8(accountId);
  return env.promise_batch_create(<u64>a.length, <u64>a.dataStart);
}

export function batchThen(after: u64, accountId: string): u64 {
  const a = utf8(accountId);
  return env.promise_batch_then(after, <u64>a.length, <u64>a.dataStart);
}

export function actionTransfer(promise: u64, amount: U128): void {
  env.promise_batch_action_transfer(promise, <u64>amount.toPtr());
}

/** Stake action; publicKey is borsh (key type byte ‖ key data). */
export function actionStake(promise: u64, amount: U128, publicKey: Uint8Array): void {
  env.promise_batch_action_stake(promise, <u64>amount.toPtr(), <u64>publicKey.length, <u64>publicKey.dataStart);
}

export function actionFunctionCall(promise: u64, method: string, args: string, deposit: U128, gas: u64): void {
  const m = utf8(method), g = utf8(args);
  env.promise_batch_action_function_call(promise, <u64>m.length, <u64>m.dataStart, <u64>g.length, <u64>g.dataStart, <u64>deposit.toPtr(), gas);
}

/** Function call that also receives a share (by weight) of the unused gas at the end of the call. */
export function actionFunctionCallWeight(promise: u64, method: string, args: string, deposit: U128, gas: u64, weight: u64): void {
  const m = utf8(method), g = utf8(args);
  env.promise_batch_action_function_call_weight(promise, <u64>m.length, <u64>m.dataStart, <u64>g.length, <u64>g.dataStart, <u64>deposit.toPtr(), gas, weight);
}

export function promiseReturn(promise: u64): void {
  env.promise_return(promise);
}

export function promiseResultsCount(): u64 {
  return env.promise_results_count();
}

export class PromiseResult {
  constructor(public successful: bool, public value: Uint8Array) {}
}

/** Result i of the callback's dependencies: Successful(bytes) or Failed (status 2). */
export function promiseResult(i: u64): PromiseResult {
  const status = env.promise_result(i, REGISTER);
  if (status == 1) {
    const v = readRegister(REGISTER);
    return new PromiseResult(true, v == null ? new Uint8Array(0) : v);
  }
  return new PromiseResult(false, new Uint8Array(0));
}
