// relay: cross-contract calls. `forward` calls another contract and reports its result through a
// callback; `join` runs two calls joined with promise_and and reports both results;
// `join_with_failure` joins a call with one that always panics, so the callback sees Failed.
// Also a NEP-141 receiver (`ft_on_transfer`) that keeps part of what it is sent.
import { assertPrivate } from "../sdk/contract";
import { JValue, Obj, arr, parseArgs, quote } from "../sdk/json";
import { currentAccountId, fromUtf8, input, log, predecessorAccountId, returnJson } from "../sdk/near";
import { panicStr } from "../sdk/panic";
import { TGAS, promiseAnd, promiseCreate, promiseResult, promiseResultsCount, promiseReturn, promiseThen } from "../sdk/promise";
import { U128 } from "../sdk/u128";

const DEFAULT_CALL_GAS: u64 = 30 * TGAS;
const CALLBACK_GAS: u64 = 10 * TGAS;

/** One outgoing call: {receiver_id, method_name, args? (JSON), deposit? (U128 string), gas? (number)}. */
function call(spec: JValue): u64 {
  const args = spec.get("args");
  const deposit = spec.has("deposit") ? spec.u128("deposit") : U128.zero();
  const gas = spec.optNumberU64("gas", DEFAULT_CALL_GAS);
  return promiseCreate(spec.str("receiver_id"), spec.str("method_name"), args == null ? "{}" : args.toJson(), deposit, gas);
}

function member(args: JValue, key: string): JValue {
  const v = args.get(key);
  if (v == null) panicStr("Failed to deserialize input from JSON.");
  return v!;
}

/** The callback's view of promise result i: {"status":"Successful","value":"<utf8>"} or {"status":"Failed"}. */
function resultJson(i: u64): string {
  const r = promiseResult(i);
  if (!r.successful) return new Obj().str("status", "Failed").build();
  return new Obj().str("status", "Successful").str("value", fromUtf8(r.value)).build();
}

/** forward({receiver_id, method_name, args?, deposit?, gas?}) → on_forward's report. */
export function forward(): void {
  const target = call(parseArgs(input()));
  promiseReturn(promiseThen(target, currentAccountId(), "on_forward", "{}", U128.zero(), CALLBACK_GAS));
}

export function on_forward(): void {
  assertPrivate("on_forward");
  const count = promiseResultsCount();
  log("on_forward sees " + count.toString() + " result(s)");
  returnJson(resultJson(0));
}

/** join({a: call, b: call}) → on_join's report of both results, in order. */
export function join(): void {
  const args = parseArgs(input());
  const a = call(member(args, "a"));
  const b = call(member(args, "b"));
  promiseReturn(promiseThen(promiseAnd([a, b]), currentAccountId(), "on_join", "{}", U128.zero(), CALLBACK_GAS));
}

/** join_with_failure({receiver_id, method_name, args?}): joins that call with self.always_fail. */
export function join_with_failure(): void {
  const ok = call(parseArgs(input()));
  const failing = promiseCreate(currentAccountId(), "always_fail", "{}", U128.zero(), DEFAULT_CALL_GAS / 3);
  promiseReturn(promiseThen(promiseAnd([ok, failing]), currentAccountId(), "on_join", "{}", U128.zero(), CALLBACK_GAS));
}

export function on_join(): void {
  assertPrivate("on_join");
  const count = promiseResultsCount();
  const parts: string[] = [];
  for (let i: u64 = 0; i < count; i++) parts.push(resultJson(i));
  log("on_join sees " + count.toString() + " result(s)");
  returnJson(arr(parts));
}

export function always_fail(): void {
  panicStr("relay: this branch fails on purpose");
}

/** echo(anything) → the same JSON, logged; a cheap target for forward and join. */
export function echo(): void {
  const text = fromUtf8(input());
  log("echo " + text);
  returnJson(parseArgs(input()).toJson());
}

/**
 * ft_on_transfer({sender_id, amount, msg}) → the unused amount (U128 string): msg "keep N"
 * keeps N (at most amount), "return all" keeps nothing, "panic" fails the call (the token then
 * refunds everything), anything else keeps it all.
 */
export function ft_on_transfer(): void {
  const args = parseArgs(input());
  const amount = args.u128("amount");
  const msg = args.str("msg");
  if (msg == "panic") panicStr("relay: ft_on_transfer refuses the tokens");
  let keep = amount;
  if (msg == "return all") keep = U128.zero();
  else if (msg.startsWith("keep ")) {
    const n = U128.parse(msg.substring(5));
    if (n == null) panicStr("relay: msg must be \"keep <amount>\"");
    keep = amount.min(n!);
  }
  log("relay keeps " + keep.toString() + " of " + amount.toString() + " from " + args.str("sender_id") + " via " + predecessorAccountId());
  returnJson(quote(amount.sub(keep).toString()));
}
