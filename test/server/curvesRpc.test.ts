import { bls12_381 } from "@noble/curves/bls12-381";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../src/chain/runtime/parameters.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, signedTx } from "../chain/runtime/helpers.js";
import { BN_G1, BN_G1_NEG, BN_G2 } from "../chain/vm/crypto/bn254Points.js";
import { le } from "../chain/vm/crypto/leBytes.js";
import { CURVES } from "../chain/vm/curvesContract.js";
import { call } from "../chain/vm/deploy.js";
import { rpcResult, startTestService } from "./harness.js";

// The curve host functions over real HTTP: a contract calling them answers query call_function
// views and transactions (send_tx), with nearcore's results, gas_profile entries and errors.
const E = NEARCORE_RUNTIME_PARAMETERS.wasm.extCosts;
const b64 = (b: Uint8Array): string => Buffer.from(b).toString("base64");
const G1 = bls12_381.G1.ProjectivePoint.BASE;

let service: Service;
const send = (signer: string, receiver: string, actions: Parameters<typeof signedTx>[3]) =>
  rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: b64(signedTx(service.chain, signer, receiver, actions)), wait_until: "FINAL" });
const view = (method: string, args: Uint8Array) =>
  rpcResult(service.rpcUrl, "query", { request_type: "call_function", finality: "optimistic", account_id: ALICE, method_name: method, args_base64: b64(args) });

beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  expect((await send(ALICE, ALICE, [{ type: "DeployContract", code: CURVES }])).status).toEqual({ SuccessValue: "" });
});
afterAll(() => service.close());

describe("curve host functions over JSON-RPC", () => {
  it("query call_function answers alt_bn128 pairing and sum results", async () => {
    const pairing = await view("bn_pairing", le(...BN_G1, ...BN_G2, ...BN_G1_NEG, ...BN_G2));
    expect(pairing.result).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    const sum = await view("bn_sum", le(0, ...BN_G1, 1, ...BN_G1));
    expect(sum.result).toEqual(new Array(64).fill(0));
  });

  it("a view failing with AltBn128InvalidInput gives the legacy error text", async () => {
    const bad = await view("bn_sum", le(2, ...BN_G1));
    expect(bad.error).toBe('wasm execution failed with error: HostError(AltBn128InvalidInput { msg: "invalid bool: [2]" })');
  });

  it("a transaction's receipt outcome carries the bls12381 result and its gas_profile entries", async () => {
    const args = Uint8Array.from([0, ...G1.toRawBytes(false), 0, ...G1.toRawBytes(false)]);
    const sent = await send(BOB, ALICE, [call("bls_p1_sum", args)]);
    expect(sent.status).toEqual({ SuccessValue: b64(G1.double().toRawBytes(false)) });
    const profile = sent.receipts_outcome[0].outcome.metadata.gas_profile as { cost: string; cost_category: string; gas_used: string }[];
    const bls = profile.filter((e) => e.cost.startsWith("BLS12381"));
    expect(bls).toEqual([
      { cost_category: "WASM_HOST_COST", cost: "BLS12381_P1_SUM_BASE", gas_used: String(E.bls12381_p1_sum_base) },
      { cost_category: "WASM_HOST_COST", cost: "BLS12381_P1_SUM_ELEMENT", gas_used: String(2n * E.bls12381_p1_sum_element) },
    ]);
  });

  it("a transaction failing in a curve function reports nearcore's HostError text (ExecutionError)", async () => {
    const sent = await send(BOB, ALICE, [call("bls_pairing", new Uint8Array(100))]);
    expect(sent.status.Failure.ActionError.kind).toEqual({
      FunctionCallError: { ExecutionError: "BLS12-381 invalid input: Incorrect input length for bls12381_pairing_check: 100 is not divisible by 288" },
    });
  });
});
