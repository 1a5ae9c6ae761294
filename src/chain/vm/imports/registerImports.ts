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
      return data === undefined ? (1n << 64n) - 1n : BigInt(data.length);
    },
    write_register(id: bigint, len: bigint, ptr: bigint): void {
      l.gas.payBase("base");
      l.writeRegister(id, l.readMemory(ptr, len));
    },
  };
}
