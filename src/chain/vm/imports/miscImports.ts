import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

const utf8Length = (s: string): number => Buffer.byteLength(s, "utf8");

/** Miscellaneous API: return value, panics, logs, AssemblyScript's abort, legacy gas. */
export function miscImports(l: VmLogic): HostImports {
  return {
    value_return(len: bigint, ptr: bigint): void {
      l.gas.payBase("base");
      const value = l.memoryOrRegister(ptr, len);
      const n = BigInt(value.length);
      if (n > l.config.maxLengthReturnedData) {
        throw hostError({ name: "ReturnedValueLengthExceeded", fields: { length: n, limit: l.config.maxLengthReturnedData } });
      }
      const perByte = l.fees.dataReceiptCreationPerByte;
      let burn = 0n;
      for (const receiver of l.context.outputDataReceivers) {
        const sir = receiver === l.context.currentAccountId;
        burn += ((sir ? perByte.sendSir : perByte.sendNotSir) + perByte.execution) * n;
      }
      l.gas.payAction(burn, burn, "new_data_receipt_byte");
      l.returnData = { kind: "Value", value };
    },
    panic(): void {
      l.gas.payBase("base");
      throw hostError({ name: "GuestPanic", fields: { panic_msg: "explicit guest panic" } });
    },
    panic_utf8(len: bigint, ptr: bigint): void {
      l.gas.payBase("base");
      throw hostError({ name: "GuestPanic", fields: { panic_msg: l.readUtf8(len, ptr) } });
    },
    log_utf8(len: bigint, ptr: bigint): void {
      l.gas.payBase("base");
      l.checkCanLog();
      const message = l.readUtf8(len, ptr);
      l.gas.payBase("log_base");
      l.gas.payPer("log_byte", utf8Length(message));
      l.pushLog(message);
    },
    log_utf16(len: bigint, ptr: bigint): void {
      l.gas.payBase("base");
      l.checkCanLog();
      const message = l.readUtf16(len, ptr);
      l.gas.payBase("log_base");
      l.gas.payPer("log_byte", utf8Length(message));
      l.pushLog(message);
    },
    abort(msgPtr: number, filePtr: number, line: number, col: number): void {
      l.gas.payBase("base");
      const m = msgPtr >>> 0;
      const f = filePtr >>> 0;
      if (m < 4 || f < 4) throw hostError({ name: "BadUTF16" });
      l.checkCanLog();
      const msgLen = l.readU32(BigInt(m - 4));
      const fileLen = l.readU32(BigInt(f - 4));
      const msg = l.readUtf16(BigInt(msgLen), BigInt(m));
      const file = l.readUtf16(BigInt(fileLen), BigInt(f));
      const message = `${msg}, filename: "${file}" line: ${line >>> 0} col: ${col >>> 0}`;
      l.gas.payBase("log_base");
      l.gas.payPer("log_byte", utf8Length(message));
      l.pushLog(`ABORT: ${message}`);
      throw hostError({ name: "GuestPanic", fields: { panic_msg: message } });
    },
    /** Legacy pwasm-utils metering (`gas_seen_from_wasm`): opcodes × regular_op_cost. */
    gas(opcodes: number): void {
      l.gas.burn(BigInt(opcodes >>> 0) * l.config.regularOpCost);
    },
  };
}
