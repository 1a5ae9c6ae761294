import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { rpcResult, startTestService } from "./harness.js";

let service: Service;
beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0, epochLength: 5 } });
});
afterAll(() => service.close());

describe("epochs in status and block headers", () => {
  it("reports the first height of the head's epoch, where the header's epoch_id changes", async () => {
    const genesis = service.chain.genesisBlock.height;
    const starts: number[] = [];
    for (let i = 0; i < 12; i++) {
      service.chain.produceBlock();
      starts.push((await rpcResult(service.rpcUrl, "status", [])).sync_info.epoch_start_height);
    }
    // Epoch 0 is the genesis block plus heights 1..5, then every 5 blocks.
    expect(starts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((h) => (h <= 5 ? genesis : h <= 10 ? genesis + 6 : genesis + 11)));
    const epochId = async (height: number) => (await rpcResult(service.rpcUrl, "block", { block_id: height })).header.epoch_id;
    expect(await epochId(genesis + 5)).not.toBe(await epochId(genesis + 6));
    expect(await epochId(genesis + 6)).toBe(await epochId(genesis + 10));
    expect(await epochId(genesis + 10)).not.toBe(await epochId(genesis + 11));
  });
});
