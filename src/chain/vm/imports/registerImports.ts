import { U64_MAX } from "../../primitives/integerLimits.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/** Registers API: read_register, register_len, write_register. */
export function registerImports(l: VmLogic): HostImports {
  return {
    read_register(id: bigint, ptr: bigint): void {
      l.gas.payBase("base");
      const data = l.readRegister(id);
      l.writeMemory(ptr, data);
    },
    register_len(id: bigint): bigint {
      l.gas.payBase("base");
      const data = l.registers.get(id);
      return data === undefined ? U64_MAX : BigInt(data.length);
    },
    write_register(id: bigint, len: bigint, ptr: bigint): void {
      l.gas.payBase("base");
      l.writeRegister(id, l.readMemory(ptr, len));
    },
  };
}
