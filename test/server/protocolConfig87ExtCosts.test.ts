import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { rpcResult, startTestService } from "./harness.js";

/** Protocol 87 (nearcore 2.14) names the ext costs of its new host functions; 86 (2.13) does not (protocolConfig.test.ts). */
let service: Service;
beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0, protocolVersion: 87 } });
  service.chain.produceBlock();
});
afterAll(() => service.close());

describe("EXPERIMENTAL_protocol_config at protocol 87", () => {
  it("ext_costs carry sha3_* and ml_dsa_verify_* (98 names), validated against the spec", async () => {
    const config = await rpcResult(service.rpcUrl, "EXPERIMENTAL_protocol_config", { finality: "optimistic" });
    expect(config.protocol_version).toBe(87);
    const costs = config.runtime_config.wasm_config.ext_costs;
    expect(costs).toMatchObject({
      sha3_256_base: 5_879_491_275,
      sha3_256_byte: 21_471_105,
      sha3_384_base: 5_811_388_236,
      sha3_384_byte: 36_649_701,
      sha3_512_base: 5_811_388_236,
      sha3_512_byte: 36_649_701,
      ml_dsa_verify_base: 540_000_000_000,
      ml_dsa_verify_byte: 11_000_000,
    });
    expect(Object.keys(costs)).toHaveLength(98);
  });
});
