import {
  AltBn128Error,
  G1_MULTIEXP_ELEMENT,
  G1_SUM_ELEMENT,
  PAIRING_CHECK_ELEMENT,
  g1Multiexp,
  g1Sum,
  pairingCheck,
  splitElements,
} from "../crypto/altBn128.js";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/** Runs a codec step; its invalid-input errors become nearcore's AltBn128InvalidInput. */
function checked<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof AltBn128Error) throw hostError({ name: "AltBn128InvalidInput", fields: { msg: e.message } });
    throw e;
  }
}

/**
 * alt_bn128 host functions, charged as nearcore's logic.rs does: the function's base, the
 * input read (memory or register), then per element of the split input (a length that does not
 * split fails before that charge), then the result's register write.
 */
export function altBn128Imports(l: VmLogic): HostImports {
  return {
    alt_bn128_g1_multiexp(len: bigint, ptr: bigint, reg: bigint): void {
      l.gas.payBase("alt_bn128_g1_multiexp_base");
      const elements = checked(() => splitElements(l.viewMemoryOrRegister(ptr, len), G1_MULTIEXP_ELEMENT));
      l.gas.payPer("alt_bn128_g1_multiexp_element", elements.length);
      l.writeRegister(reg, checked(() => g1Multiexp(elements)));
    },
    alt_bn128_g1_sum(len: bigint, ptr: bigint, reg: bigint): void {
      l.gas.payBase("alt_bn128_g1_sum_base");
      const elements = checked(() => splitElements(l.viewMemoryOrRegister(ptr, len), G1_SUM_ELEMENT));
      l.gas.payPer("alt_bn128_g1_sum_element", elements.length);
      l.writeRegister(reg, checked(() => g1Sum(elements)));
    },
    alt_bn128_pairing_check(len: bigint, ptr: bigint): bigint {
      l.gas.payBase("alt_bn128_pairing_check_base");
      const elements = checked(() => splitElements(l.viewMemoryOrRegister(ptr, len), PAIRING_CHECK_ELEMENT));
      l.gas.payPer("alt_bn128_pairing_check_element", elements.length);
      return checked(() => pairingCheck(elements)) ? 1n : 0n;
    },
  };
}
