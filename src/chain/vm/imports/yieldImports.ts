import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Yield/resume (NEP-519, nearcore logic.rs `promise_yield_create` / `promise_yield_resume`),
 * with nearcore's order of charges and checks.
 *
 * promise_yield_create makes a receipt to the current account with one FunctionCall (no
 * deposit) and one input data id, nothing in the call produces it; the data id goes to
 * `register_id` and the yield's status is set to Yielded in the state. The runtime stores the
 * receipt at once and queues a timeout (`yield_timeout_length_in_blocks`).
 *
 * promise_yield_resume, on the same account, submits the data for that id: 1 (and a
 * PromiseResume receipt, and the status ResumeInitiated) when the yield still awaits data (its
 * receipt is stored or its status set, so also for a yield made earlier in the same call), 0
 * otherwise. The data then reaches the yielded receipt as a successful promise result.
 */
export function yieldImports(l: VmLogic): HostImports {
  const f = l.fees;
  return {
    promise_yield_create(mLen: bigint, mPtr: bigint, aLen: bigint, aPtr: bigint, gas: bigint, gasWeight: bigint, registerId: bigint): bigint {
      l.gas.payBase("base");
      l.denyInView("promise_yield_create");
      l.gas.payBase("yield_create_base");
      const method = l.memoryOrRegister(mPtr, mLen);
      if (method.length === 0) throw hostError({ name: "EmptyMethodName" });
      const args = l.memoryOrRegister(aPtr, aLen);
      const bytes = BigInt(method.length + args.length);
      l.gas.payPer("yield_create_byte", bytes);
      // The callback's gas is prepaid here, so this call cannot use it any more.
      l.gas.prepay(gas);
      // A receipt to itself with one input that is also sent to itself.
      l.payForNewReceipt(true, [true]);
      const { receipt, dataId } = l.receipts.createYieldReceipt(l.context.currentAccountId);
      l.ext.setPromiseYieldStatus?.(dataId, "Yielded");
      const idx = l.pushPromise({ receipt });
      l.payActionBase(f.functionCallBase, true, "function_call_base");
      l.payActionPerByte(f.functionCallPerByte, bytes, true, "function_call_byte");
      let methodName: string;
      try {
        methodName = utf8.decode(method);
      } catch {
        throw hostError({ name: "InvalidMethodName" });
      }
      l.receipts.appendFunctionCall(receipt, methodName, Uint8Array.from(args), 0n, gas, gasWeight);
      l.writeRegister(registerId, dataId);
      return idx;
    },
    promise_yield_resume(idLen: bigint, idPtr: bigint, pLen: bigint, pPtr: bigint): number {
      l.gas.payBase("base");
      l.denyInView("promise_submit_data");
      l.gas.payBase("yield_resume_base");
      // nearcore charges the length argument as given (u64::MAX, a register, overflows).
      l.gas.payPer("yield_resume_byte", pLen);
      const dataId = l.memoryOrRegister(idPtr, idLen);
      const payload = l.memoryOrRegister(pPtr, pLen);
      const limit = l.config.maxYieldPayloadSize;
      if (BigInt(payload.length) > limit) throw hostError({ name: "YieldPayloadLength", fields: { length: BigInt(payload.length), limit } });
      if (dataId.length !== 32) throw hostError({ name: "DataIdMalformed" });
      if (l.ext.promiseYieldAwaiting?.(dataId) !== true) return 0;
      l.receipts.resumes.push({ dataId: Uint8Array.from(dataId), data: Uint8Array.from(payload) });
      l.ext.setPromiseYieldStatus?.(dataId, "ResumeInitiated");
      return 1;
    },
  };
}
