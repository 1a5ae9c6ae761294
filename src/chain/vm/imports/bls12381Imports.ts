import type { ExtCost } from "../../runtime/parameters.js";
import {
  BLS_ITEM,
  Bls12381Error,
  g1Multiexp,
  g2Multiexp,
  mapFp2ToG2,
  mapFpToG1,
  p1Decompress,
  p1Sum,
  p2Decompress,
  p2Sum,
  pairingCheck,
} from "../crypto/bls12381.js";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/** Runs an operation; a bad input length becomes nearcore's BLS12381InvalidInput. */
function checked<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof Bls12381Error) throw hostError({ name: "BLS12381InvalidInput", fields: { msg: e.message } });
    throw e;
  }
}

/**
 * The bls12381_* host functions that write a register, as nearcore's `bls12381_impl!` charges
 * them: the base, then the element cost × (value_len / item size) on the raw argument, before
 * the input is read (with value_len = u64::MAX, a register, that product overflows:
 * IntegerOverflow, as in nearcore), then the read; 0 and the output in the register, or 1 and
 * no register write for an invalid point or field element.
 */
function registerOp(l: VmLogic, base: ExtCost, element: ExtCost, item: number, op: (data: Uint8Array) => Uint8Array | undefined) {
  return (len: bigint, ptr: bigint, reg: bigint): bigint => {
    l.gas.payBase(base);
    l.gas.payPer(element, len / BigInt(item));
    const out = checked(() => op(l.viewMemoryOrRegister(ptr, len)));
    if (out === undefined) return 1n;
    l.writeRegister(reg, out);
    return 0n;
  };
}

export function bls12381Imports(l: VmLogic): HostImports {
  return {
    bls12381_p1_sum: registerOp(l, "bls12381_p1_sum_base", "bls12381_p1_sum_element", BLS_ITEM.p1Sum, p1Sum),
    bls12381_p2_sum: registerOp(l, "bls12381_p2_sum_base", "bls12381_p2_sum_element", BLS_ITEM.p2Sum, p2Sum),
    bls12381_g1_multiexp: registerOp(l, "bls12381_g1_multiexp_base", "bls12381_g1_multiexp_element", BLS_ITEM.g1Multiexp, g1Multiexp),
    bls12381_g2_multiexp: registerOp(l, "bls12381_g2_multiexp_base", "bls12381_g2_multiexp_element", BLS_ITEM.g2Multiexp, g2Multiexp),
    bls12381_map_fp_to_g1: registerOp(l, "bls12381_map_fp_to_g1_base", "bls12381_map_fp_to_g1_element", BLS_ITEM.mapFpToG1, mapFpToG1),
    bls12381_map_fp2_to_g2: registerOp(l, "bls12381_map_fp2_to_g2_base", "bls12381_map_fp2_to_g2_element", BLS_ITEM.mapFp2ToG2, mapFp2ToG2),
    bls12381_p1_decompress: registerOp(l, "bls12381_p1_decompress_base", "bls12381_p1_decompress_element", BLS_ITEM.p1Decompress, p1Decompress),
    bls12381_p2_decompress: registerOp(l, "bls12381_p2_decompress_base", "bls12381_p2_decompress_element", BLS_ITEM.p2Decompress, p2Decompress),
    /** Unlike the others, nearcore counts its elements on the data read (a register works). */
    bls12381_pairing_check(len: bigint, ptr: bigint): bigint {
      l.gas.payBase("bls12381_pairing_base");
      const data = l.viewMemoryOrRegister(ptr, len);
      l.gas.payPer("bls12381_pairing_element", Math.floor(data.length / BLS_ITEM.pairing));
      return checked(() => pairingCheck(data));
    },
  };
}
