import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";
import { at } from "../../must.js";

/** Promise results of a callback, and promise_return (the call's result becomes a receipt's). */
export function promiseResultImports(l: VmLogic): HostImports {
  return {
    promise_results_count(): bigint {
      l.gas.payBase("base");
      l.denyInView("promise_results_count");
      return BigInt(l.context.promiseResults.length);
    },
    promise_result(idx: bigint, reg: bigint): bigint {
      l.gas.payBase("base");
      l.denyInView("promise_result");
      const results = l.context.promiseResults;
      if (idx >= BigInt(results.length)) throw hostError({ name: "InvalidPromiseResultIndex", fields: { result_idx: idx } });
      const r = at(results, Number(idx));
      if (r === null) return 2n;
      l.writeRegister(reg, r, false);
      return 1n;
    },
    promise_return(idx: bigint): void {
      l.gas.payBase("base");
      l.gas.payBase("promise_return");
      l.denyInView("promise_return");
      const p = l.promise(idx);
      if (!("receipt" in p)) throw hostError({ name: "CannotReturnJointPromise" });
      l.returnData = { kind: "ReceiptIndex", index: p.receipt };
    },
  };
}
