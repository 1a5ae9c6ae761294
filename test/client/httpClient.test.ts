import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// shardkit/client (src/client) is @shardkit/client under the names it always had: these are the same classes.
import { createRpcClient, httpTransport, RpcHttpError, RpcResponseError } from "../../src/client/index.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

let service: Service;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "shardkit-client-"));
  const keysFile = join(dir, "keys.json");
  await writeFile(keysFile, JSON.stringify({ keys: [{ key: "client-key" }] }));
  service = await startTestService({ keysFile });
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

describe("the generated client over httpTransport", () => {
  it("calls methods with typed params and results", async () => {
    const rpc = createRpcClient(httpTransport({ url: service.rpcUrl, apiKey: "client-key" }));
    const account = await rpc.query({ request_type: "view_account", finality: "final", account_id: "alice.test.near" });
    expect(account).toMatchObject({ amount: (10_000n * 10n ** 24n).toString(), storage_usage: 182 });
    const block = await rpc.block({ finality: "optimistic" });
    expect(block.header.height).toBe(service.chain.head().height);
    expect(await rpc.gasPrice({})).toEqual({ gas_price: "100000000" });
    expect(await rpc.health()).toBeNull();
    // nearcore's legacy quirk stays a result, typed as QueryErrorResult.
    const other = devKeyPair("bob.test.near").publicKeyString;
    const missing = await rpc.query({ request_type: "view_access_key", finality: "final", account_id: "alice.test.near", public_key: other });
    expect(missing).toMatchObject({ error: `access key ${other} does not exist while viewing` });
  });

  it("rejects with RpcResponseError carrying the cause, and RpcHttpError for non-JSON-RPC answers", async () => {
    const rpc = createRpcClient(httpTransport({ url: service.rpcUrl }));
    const failure = await rpc.query({ request_type: "view_account", finality: "final", account_id: "nobody.test.near" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcResponseError);
    expect(failure).toMatchObject({ causeName: "UNKNOWN_ACCOUNT", httpStatus: 200, info: { requested_account_id: "nobody.test.near" } });
    const refused = await createRpcClient(httpTransport({ url: service.rpcUrl, apiKey: "wrong" }))
      .health()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RpcHttpError);
    expect(refused).toMatchObject({ httpStatus: 403, body: "Unknown API key" });
  });
});
