import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateParams, validateResult } from "../../generated/rpc/validators.js";
import type { Service } from "../../src/server/startService.js";
import { rpcResult, startTestService } from "./harness.js";

/**
 * The request examples of the public NEAR RPC docs for `EXPERIMENTAL_changes` (docs.near.org,
 * and the provider docs that copy them: QuickNode, BlockPI, NodeReal), one per changes_type.
 * They name mainnet/testnet accounts this chain does not have, so every answer is exact: the
 * block's hash and no changes.
 */
const docRequests: [string, Record<string, unknown>][] = [
  ["account_changes", { changes_type: "account_changes", account_ids: ["prophet.poolv1.near", "kiln.poolv1.near"], finality: "final" }],
  [
    "single_access_key_changes",
    { changes_type: "single_access_key_changes", keys: [{ account_id: "example-acct.testnet", public_key: "ed25519:25KEc7t7MQohAJ4EDThd2vkksKkwangnuJFzcoiXj9oM" }], finality: "final" },
  ],
  ["all_access_key_changes", { changes_type: "all_access_key_changes", account_ids: ["example-acct.testnet", "example.testnet"], finality: "final" }],
  ["contract_code_changes", { changes_type: "contract_code_changes", account_ids: ["dev-1602714453032-7566969"], finality: "final" }],
  ["data_changes", { changes_type: "data_changes", account_ids: ["prophet.poolv1.near", "kiln.poolv1.near"], key_prefix_base64: "", finality: "final" }],
];

/** BlockPI's documented answer to its single_access_key_changes example (a nearcore reply, verbatim). */
const docResult = {
  block_hash: "4kvqE1PsA6ic1LG7S5SqymSEhvjqGqumKjAxnVdNN3ZH",
  changes: [
    {
      cause: { type: "transaction_processing", tx_hash: "HshPyqddLxsganFxHHeH9LtkGekXDCuAt6axVgJLboXV" },
      type: "access_key_update",
      change: {
        account_id: "example-acct.testnet",
        public_key: "ed25519:25KEc7t7MQohAJ4EDThd2vkksKkwangnuJFzcoiXj9oM",
        access_key: { nonce: 1, permission: "FullAccess" },
      },
    },
  ],
};

let service: Service;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

describe("the docs' EXPERIMENTAL_changes examples", () => {
  it.each(docRequests)("%s: the spec accepts the request and the node answers it exactly", async (_type, params) => {
    expect(validateParams.EXPERIMENTAL_changes(params)).toBe(true);
    expect(validateParams.changes(params)).toBe(true);
    const final = service.chain.blockByFinality("final");
    expect(await rpcResult(service.rpcUrl, "EXPERIMENTAL_changes", params)).toEqual({ block_hash: final.hash, changes: [] });
  });

  it("the documented nearcore answer matches the result schema", () => {
    expect(validateResult.EXPERIMENTAL_changes(docResult)).toBe(true);
    expect(validateResult.changes(docResult)).toBe(true);
    // and a field nearcore never sends is refused (the result schema is closed)
    expect(validateResult.changes({ ...docResult, changes: [{ ...docResult.changes[0], extra: 1 }] })).toBe(false);
  });
});
