import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0, protocolVersion: 87 } });
  url = service.rpcUrl;
});
afterAll(() => service.close());

describe("a chain opened at protocol 87 (nearcore 2.14)", () => {
  it("reports 87 and 87.yaml's parameters", async () => {
    const status = await rpcResult(url, "status", null);
    expect([status.protocol_version, status.latest_protocol_version]).toEqual([87, 87]);
    const config = await rpcResult(url, "EXPERIMENTAL_protocol_config", { finality: "final" });
    expect(config.protocol_version).toBe(87);
    expect(config.runtime_config.transaction_costs.burnt_gas_reward).toEqual([0, 1]);
  });

  it("refuses a FunctionCall with an empty method name with nearcore's InvalidTxError", async () => {
    const tx = signedTx(service.chain, ALICE, BOB, [{ type: "FunctionCall", methodName: "", args: new Uint8Array(), gas: 10n ** 12n, deposit: 0n }]);
    const reply = await rpcError(url, "send_tx", { signed_tx_base64: b64(tx) });
    expect(reply.error).toMatchObject({
      name: "HANDLER_ERROR",
      cause: { name: "INVALID_TRANSACTION" },
      data: { TxExecutionError: { InvalidTxError: { ActionsValidation: "FunctionCallEmptyMethodName" } } },
    });
  });
});
