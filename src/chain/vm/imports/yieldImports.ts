import { U64_MAX } from "../../primitives/integerLimits.js";
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
 *
 * The yield-id variants (protocol 85 YieldWithId) name the yield by a 32-byte id the contract
 * chooses: promise_yield_create_with_id returns the promise index (u64::MAX, having charged
 * only the host costs so far, while a yield with that id is pending on the account: its
 * mapping stays until the yielded receipt runs) and may attach a deposit to the callback;
 * promise_yield_resume_with_yield_id resumes the data id the id maps to (0 for an unknown id).
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
      const { id, payload } = readResume(l, "promise_submit_data", idLen, idPtr, pLen, pPtr);
      if (id.length !== 32) throw hostError({ name: "DataIdMalformed" });
      return submitResume(l, id, payload);
    },
    promise_yield_create_with_id(
      mLen: bigint,
      mPtr: bigint,
      aLen: bigint,
      aPtr: bigint,
      amountPtr: bigint,
      gas: bigint,
      gasWeight: bigint,
      yLen: bigint,
      yPtr: bigint,
    ): bigint {
      l.gas.payBase("base");
      l.denyInView("promise_yield_create_with_id");
      l.gas.payBase("yield_create_with_id_base");
      const amount = l.readU128(amountPtr);
      const method = l.memoryOrRegister(mPtr, mLen);
      if (method.length === 0) throw hostError({ name: "EmptyMethodName" });
      const args = l.memoryOrRegister(aPtr, aLen);
      const yieldId = l.memoryOrRegister(yPtr, yLen);
      if (yieldId.length !== 32) throw hostError({ name: "YieldIdMalformed" });
      const bytes = BigInt(method.length + args.length);
      l.gas.payPer("yield_create_byte", bytes);
      // A pending yield with this id: nearcore's RuntimeExt answers None, the host u64::MAX.
      if (l.ext.yieldIdDataId?.(yieldId) !== undefined) return U64_MAX;
      // nearcore creates the receipt (and the id's mapping and status) before any receipt fee.
      const { receipt, dataId } = l.receipts.createYieldReceipt(l.context.currentAccountId);
      l.ext.setYieldIdMapping?.(Uint8Array.from(yieldId), dataId);
      l.ext.setPromiseYieldStatus?.(dataId, "Yielded");
      l.gas.prepay(gas);
      l.payForNewReceipt(true, [true]);
      const idx = l.pushPromise({ receipt });
      l.payActionBase(f.functionCallBase, true, "function_call_base");
      l.payActionPerByte(f.functionCallPerByte, bytes, true, "function_call_byte");
      l.deductFunctionCallDeposit(amount);
      let methodName: string;
      try {
        methodName = utf8.decode(method);
      } catch {
        throw hostError({ name: "InvalidMethodName" });
      }
      l.receipts.appendFunctionCall(receipt, methodName, Uint8Array.from(args), amount, gas, gasWeight);
      return idx;
    },
    promise_yield_resume_with_yield_id(idLen: bigint, idPtr: bigint, pLen: bigint, pPtr: bigint): number {
      const { id, payload } = readResume(l, "promise_yield_resume_with_yield_id", idLen, idPtr, pLen, pPtr);
      if (id.length !== 32) throw hostError({ name: "YieldIdMalformed" });
      const dataId = l.ext.yieldIdDataId?.(id);
      return dataId === undefined ? 0 : submitResume(l, dataId, payload);
    },
  };
}

/** The charges and checks both resumes share, in nearcore's order: the id and the payload. */
function readResume(
  l: VmLogic,
  name: string,
  idLen: bigint,
  idPtr: bigint,
  pLen: bigint,
  pPtr: bigint,
): { id: Uint8Array; payload: Uint8Array } {
  l.gas.payBase("base");
  l.denyInView(name);
  l.gas.payBase("yield_resume_base");
  // nearcore charges the length argument as given (u64::MAX, a register, overflows).
  l.gas.payPer("yield_resume_byte", pLen);
  const id = l.memoryOrRegister(idPtr, idLen);
  const payload = l.memoryOrRegister(pPtr, pLen);
  const limit = l.config.maxYieldPayloadSize;
  if (BigInt(payload.length) > limit) throw hostError({ name: "YieldPayloadLength", fields: { length: BigInt(payload.length), limit } });
  return { id, payload };
}

/** nearcore RuntimeExt `submit_promise_resume_data`: 1 and a PromiseResume while the yield awaits data, else 0. */
function submitResume(l: VmLogic, dataId: Uint8Array, payload: Uint8Array): number {
  if (l.ext.promiseYieldAwaiting?.(dataId) !== true) return 0;
  l.receipts.resumes.push({ dataId: Uint8Array.from(dataId), data: Uint8Array.from(payload) });
  l.ext.setPromiseYieldStatus?.(dataId, "ResumeInitiated");
  return 1;
}
