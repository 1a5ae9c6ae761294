// The browser side of test/client/chromium.test.ts: bundled for the browser with esbuild from
// the package sources, run in headless Chromium against a real `shardkit serve`.

import { actions, jsonRpcClient, keyPairFromString, transactionSender, viewStatePages } from "../../../packages/client/src/jsonrpc/index.js";
import { restClient } from "../../../packages/client/src/rest/index.js";

interface RunInput {
  rpcUrl: string;
  apiUrl: string;
  apiKey: string;
  secretKey: string;
}

async function runClient(input: RunInput) {
  const rpc = jsonRpcClient({ url: input.rpcUrl, apiKey: input.apiKey });
  const pages = viewStatePages(rpc, { finality: "final", account_id: "kv.test.near", prefix_base64: "", limit: 50 });
  const first = await pages.next();
  if (first.done === true) throw new Error("no view_state page");
  const second = await pages.next();
  const sender = transactionSender({ rpc, signerId: "alice.test.near", signer: keyPairFromString(input.secretKey) });
  const outcome = await sender.sendAndWait("bob.test.near", [actions.transfer(7n)], { waitUntil: "FINAL" });
  const api = restClient({ baseUrl: input.apiUrl, apiKey: input.apiKey });
  const { data } = await api.GET("/v1/account/{account_id}/full", { params: { path: { account_id: "bob.test.near" } } });
  return {
    userAgent: (globalThis as { navigator?: { userAgent: string } }).navigator?.userAgent ?? "",
    firstPage: { count: first.value.values.length, lastKey: first.value.last_key, firstKey: first.value.values[0]?.key },
    secondPage: second.done === true ? null : { count: second.value.values.length, blockHash: second.value.block_hash, firstBlockHash: first.value.block_hash },
    outcome: "transaction" in outcome ? { hash: outcome.transaction.hash, status: outcome.status, final: outcome.final_execution_status } : null,
    restAccount: data?.account_id ?? null,
  };
}

(globalThis as unknown as { runClient: typeof runClient }).runClient = runClient;
