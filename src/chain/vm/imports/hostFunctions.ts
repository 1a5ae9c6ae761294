import type { VmLogic } from "../VmLogic.js";
import { altBn128Imports } from "./altBn128Imports.js";
import { bls12381Imports } from "./bls12381Imports.js";
import { p256Imports } from "./p256Imports.js";
import { contextImports } from "./contextImports.js";
import { economicsImports } from "./economicsImports.js";
import { gasKeyImports } from "./gasKeyImports.js";
import type { HostFunction, HostImports } from "./HostImports.js";
import { importArity } from "./importSignatures.js";
import { U64_MAX } from "../../primitives/integerLimits.js";
import { internalImports } from "./internalImports.js";
import { mathImports } from "./mathImports.js";
import { miscImports } from "./miscImports.js";
import { promiseImports } from "./promiseImports.js";
import { promiseResultImports } from "./promiseResultImports.js";
import { registerImports } from "./registerImports.js";
import { storageImports } from "./storageImports.js";
import { stateInitImports } from "./stateInitImports.js";
import { validatorImports } from "./validatorImports.js";
import { yieldImports } from "./yieldImports.js";
import { refundToImports } from "./refundToImports.js";
import { sha3Imports } from "./sha3Imports.js";
import { mlDsaImports } from "./mlDsaImports.js";

/** An i64 argument as nearcore's host sees it (u64); i32 arguments and in-range values pass as they are. */
function u64(a: unknown): unknown {
  return typeof a === "bigint" && (a < 0n || a > U64_MAX) ? BigInt.asUintN(64, a) : a;
}

/**
 * i64 arguments arrive signed; nearcore's host sees them as u64. With gas kept in a wasm
 * global, the host does not read the instance's counter on every call: its charges check the
 * limit with the instance's whole armed budget counted as burnt (GasCounter reserve), and only
 * a charge that could cross a limit (or a read of the gas) settles the instance's gas first,
 * so limits, errors and clamps see the same totals, in the same order, as host-call metering.
 * The counter is re-armed after a call that settled it. The wrapper has the import's arity
 * (from its signature), so a call allocates no argument array.
 */
function unsignedHostCall(l: VmLogic, fn: HostFunction, arity: number | undefined): HostFunction {
  switch (arity) {
    case 0:
      return () => {
        const r = fn();
        if (l.needsArm) l.armWasmGas();
        return r;
      };
    case 1:
      return (a: unknown) => {
        const r = fn(u64(a));
        if (l.needsArm) l.armWasmGas();
        return r;
      };
    case 2:
      return (a: unknown, b: unknown) => {
        const r = fn(u64(a), u64(b));
        if (l.needsArm) l.armWasmGas();
        return r;
      };
    case 3:
      return (a: unknown, b: unknown, c: unknown) => {
        const r = fn(u64(a), u64(b), u64(c));
        if (l.needsArm) l.armWasmGas();
        return r;
      };
    case 4:
      return (a: unknown, b: unknown, c: unknown, d: unknown) => {
        const r = fn(u64(a), u64(b), u64(c), u64(d));
        if (l.needsArm) l.armWasmGas();
        return r;
      };
    case 5:
      return (a: unknown, b: unknown, c: unknown, d: unknown, e: unknown) => {
        const r = fn(u64(a), u64(b), u64(c), u64(d), u64(e));
        if (l.needsArm) l.armWasmGas();
        return r;
      };
    default:
      return (...args: unknown[]) => {
        const r = fn(...args.map(u64));
        if (l.needsArm) l.armWasmGas();
        return r;
      };
  }
}

function unsigned(l: VmLogic, imports: HostImports): HostImports {
  const out: HostImports = {};
  for (const [name, fn] of Object.entries(imports)) out[name] = unsignedHostCall(l, fn, importArity(name));
  return out;
}

/**
 * Every host function for `l`, by module; each group lives in its own file. Functions behind a
 * VM flag of the call's parameters are left out when it is off, so importing them fails to
 * link as any unknown import does (nearcore imports.rs registers them only under the flag).
 */
export function hostFunctions(l: VmLogic): Record<string, HostImports> {
  const w = l.config;
  return {
    env: unsigned(l, {
      ...registerImports(l),
      ...contextImports(l),
      ...economicsImports(l),
      ...mathImports(l),
      ...altBn128Imports(l),
      ...p256Imports(l),
      ...bls12381Imports(l),
      ...miscImports(l),
      ...storageImports(l),
      ...promiseImports(l),
      ...gasKeyImports(l),
      ...promiseResultImports(l),
      ...yieldImports(l),
      ...refundToImports(l),
      ...validatorImports(l),
      ...stateInitImports(l),
      ...(w.sha3HostFns ? sha3Imports(l) : {}),
      ...(w.mlDsaVerifyHostFn ? mlDsaImports(l) : {}),
    }),
    // Only the instrumentation calls these, with non-negative values: no conversion on the hot path.
    internal: internalImports(l),
  };
}
