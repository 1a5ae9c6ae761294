import { JsonRpcProvider } from "@near-js/providers";
import { NearRpcClient, block, enableValidation, gasPrice, status, viewAccessKey, viewAccount } from "@near-js/jsonrpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

// Real NEAR clients, unmodified, against our server: the wire formats must be nearcore's.
let service: Service;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

const alicePk = devKeyPair("alice.test.near").publicKeyString;
const NEAR = 10n ** 24n;

describe("near-api-js (@near-js/providers 2.5) JsonRpcProvider", () => {
  const provider = () => new JsonRpcProvider({ url: service.rpcUrl });

  it("reads accounts, access keys, state, blocks, gas price and status", async () => {
    const p = provider();
    const account = await p.viewAccount("alice.test.near", { finality: "final" });
    expect(BigInt(account.amount)).toBe(10_000n * NEAR);
    expect(account.storage_usage).toBe(182);
    const key = await p.viewAccessKey("alice.test.near", alicePk, { finality: "optimistic" });
    expect(key.permission).toBe("FullAccess");
    expect(BigInt(key.nonce)).toBe(0n);
    expect((await p.viewAccessKeyList("bob.test.near", { finality: "final" })).keys).toHaveLength(1);
    const head = service.chain.head();
    expect((await p.viewBlock({ finality: "optimistic" })).header.hash).toBe(head.hash);
    expect((await p.viewBlock({ blockId: head.height })).header.height).toBe(head.height);
    expect((await p.viewGasPrice()).gas_price).toBe("100000000");
    expect((await p.viewNodeStatus()).chain_id).toBe(service.chain.chainId);
    const state = (await p.query({
      request_type: "view_state",
      finality: "final",
      account_id: "kv.test.near",
      prefix_base64: Buffer.from("c:").toString("base64"),
      limit: 3,
    } as never)) as unknown as { values: { key: string }[] };
    expect(state.values.map((v) => Buffer.from(v.key, "base64").toString())).toEqual(["c:0000", "c:0001", "c:0002"]);
  });

  it("turns our errors into its typed errors", async () => {
    const p = provider();
    await expect(p.viewAccount("nobody.test.near", { finality: "final" })).rejects.toThrow(/nobody\.test\.near/);
    const other = devKeyPair("carol.test.near").publicKeyString;
    await expect(p.viewAccessKey("alice.test.near", other, { finality: "final" })).rejects.toThrow(`access key ${other} doesn't exist`);
    await expect(p.viewBlock({ blockId: 99_999 })).rejects.toThrow();
  });
});

describe("@near-js/jsonrpc-client 1.4 (validates responses with nearcore's own schemas)", () => {
  beforeAll(() => enableValidation());
  const client = () => new NearRpcClient({ endpoint: service.rpcUrl, retries: 0 });

  it("accepts our block, status, gas_price, view_account and view_access_key responses", async () => {
    const c = client();
    const head = service.chain.head();
    const b = await block(c, { blockId: head.height });
    expect(b.header.hash).toBe(head.hash);
    expect(b.chunks).toHaveLength(4);
    expect((await status(c)).chainId).toBe(service.chain.chainId);
    expect((await gasPrice(c, { blockId: null })).gasPrice).toBe("100000000");
    const account = await viewAccount(c, { accountId: "carol.test.near", finality: "final" });
    expect(account.storageUsage).toBe(182);
    const key = await viewAccessKey(c, { accountId: "carol.test.near", publicKey: devKeyPair("carol.test.near").publicKeyString, finality: "final" });
    expect(key.permission).toBe("FullAccess");
  });
});
