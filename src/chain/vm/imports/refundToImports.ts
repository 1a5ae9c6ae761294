import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * nearcore logic.rs `promise_set_refund_to`: the receipt of promise `idx` sends its deposit
 * refunds to `account_id` instead of to its predecessor (the receipt goes out as nearcore's
 * ActionReceiptV2). Charges `base` and the account id's reading and decoding; a joint promise
 * (promise_and) has no one receipt: CannotSetRefundToOnJointPromise.
 */
export function refundToImports(l: VmLogic): HostImports {
  return {
    promise_set_refund_to(idx: bigint, accLen: bigint, accPtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_set_refund_to");
      const refundTo = l.readAccountId(accPtr, accLen);
      const p = l.promise(idx);
      if (!("receipt" in p)) throw hostError({ name: "CannotSetRefundToOnJointPromise" });
      l.receipts.setRefundTo(p.receipt, refundTo);
    },
  };
}
