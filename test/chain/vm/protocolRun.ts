import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { runtimeParametersFor } from "../../../src/chain/runtime/parameters.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { runContract, type VmOutcome } from "../../../src/chain/vm/runContract.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { DEFAULT_CONTEXT, NO_STATE_EXT } from "./hostKit.js";

/** One cache for every protocol: calls name their limits (runContract), as the chain's executor does. */
const cache = new ContractCache(wasmLimitsOf(runtimeParametersFor(86)), 16 * 1024 * 1024);

/** Runs `method` of `code` under protocol `version`'s parameter table (no contract state). */
export function runAt(version: number, code: Uint8Array, method = "main"): VmOutcome {
  let n = 0;
  return runContract({
    codeHash: Buffer.from(sha256(code)).toString("hex"),
    code: () => code,
    codeLength: code.length,
    methodName: method,
    context: DEFAULT_CONTEXT,
    params: runtimeParametersFor(version),
    ext: NO_STATE_EXT,
    newDataId: () => sha256(Uint8Array.of(n++)),
    cache,
  });
}

/** The bytes a contract returned with value_return (fails the test on any other outcome). */
export function returned(out: VmOutcome): Uint8Array {
  if (out.error !== undefined) throw new Error(`call failed: ${JSON.stringify(out.error)}`);
  if (out.returnData.kind !== "Value") throw new Error(`no value returned: ${out.returnData.kind}`);
  return out.returnData.value;
}
