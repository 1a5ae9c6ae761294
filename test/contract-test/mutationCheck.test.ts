import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContractTests, type ContractTestOptions } from "../../src/contract-test/index.js";
import { startService, type Service } from "../../src/server/startService.js";
import { startFaultyProxy, type Fault, type ProxiedRequest } from "./faultyProxy.js";

let service: Service;
const API_KEY = "mutation-check-key";

const isParseError = (reply: { json: any }) => reply.json?.error?.cause?.name === "PARSE_ERROR";
const isViewState = (request: ProxiedRequest) => request.json?.method === "query" && request.json?.params?.request_type === "view_state";

/** Which listener the fault sits in front of, the fault, and a check that must catch it. */
interface Mutation {
  readonly listener: "rpc" | "archival" | "api";
  readonly fault: Fault;
  /** Names (or name prefixes) of checks of which at least one must fail. */
  readonly caughtBy: RegExp;
  readonly withApiKey?: boolean;
  readonly timeoutMs?: number;
}

const mutations: Record<string, Mutation> = {
  "a renamed result field (status chain_id -> chainId)": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        if (request.json?.method === "status" && reply.json?.result) {
          reply.json.result.chainId = reply.json.result.chain_id;
          delete reply.json.result.chain_id;
        }
      },
    },
    caughtBy: /^rpc status status$/,
  },
  "a wrong error code (PARSE_ERROR as -32602)": {
    listener: "rpc",
    fault: {
      reply(_request, reply) {
        if (isParseError(reply)) reply.json.error.code = -32602;
      },
    },
    caughtBy: /^rpc block block_by_height: block_id of a wrong type$/,
  },
  "an undeclared error cause (gas_price PARSE_ERROR reported as UNKNOWN_EPOCH)": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        if (isParseError(reply) && request.json?.method === "gas_price") {
          reply.json.error = { ...reply.json.error, name: "HANDLER_ERROR", code: -32000, message: "Server error", cause: { name: "UNKNOWN_EPOCH" } };
          reply.status = 200;
        }
      },
    },
    caughtBy: /^rpc gas_price /,
  },
  "an off-by-one view_state cursor (skips the key after the cursor)": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        if (isViewState(request) && request.json.params.after_key_base64 && reply.json?.result) reply.json.result.values.shift();
      },
    },
    caughtBy: /^view_state paging$/,
  },
  "an inclusive view_state cursor (repeats the cursor key)": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        const after = isViewState(request) ? request.json.params.after_key_base64 : undefined;
        if (after && reply.json?.result) reply.json.result.values.unshift({ key: after, value: "" });
      },
    },
    caughtBy: /^view_state paging$/,
  },
  "a view_state that drops one entry from every plain answer, paged or not (only proofs show it)": {
    listener: "rpc",
    fault: (() => {
      let victim: string | undefined;
      return {
        reply(request: ProxiedRequest, reply: { json: any }) {
          const params = request.json?.params;
          const values: { key: string }[] | undefined = reply.json?.result?.values;
          if (!isViewState(request) || params.include_proof === true || values === undefined) return;
          if (victim === undefined && params.account_id === "ft.test.near" && values.length >= 3 && !params.prefix_base64 && params.limit === undefined) victim = values[1]!.key;
          const at = values.findIndex((v) => v.key === victim);
          if (at >= 0) values.splice(at, 1);
        },
      };
    })(),
    caughtBy: /^view_state paging$/,
  },
  "last_key on a final page": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        const result = reply.json?.result;
        if (isViewState(request) && request.json.params.limit !== undefined && result?.last_key === undefined && result?.values?.length > 0) {
          result.last_key = result.values[result.values.length - 1].key;
        }
      },
    },
    caughtBy: /^view_state paging$/,
  },
  "pages out of byte order": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        if (isViewState(request) && request.json.params.limit !== undefined && reply.json?.result?.values?.length >= 2) reply.json.result.values.reverse();
      },
    },
    caughtBy: /^view_state paging$/,
  },
  "a prefixed read that misses the first entry under its prefix": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        const params = request.json?.params;
        if (isViewState(request) && params.prefix_base64 && params.after_key_base64 === undefined && reply.json?.result?.values?.length > 0) {
          reply.json.result.values.shift();
        }
      },
    },
    caughtBy: /^view_state paging$/,
  },
  "last_key that is not the page's last key": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        const result = reply.json?.result;
        if (isViewState(request) && result?.last_key !== undefined && result.values.length >= 2) result.last_key = result.values[0].key;
      },
    },
    caughtBy: /^view_state paging$/,
  },
  "a missing last_key": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        if (isViewState(request) && reply.json?.result) delete reply.json.result.last_key;
      },
    },
    caughtBy: /^view_state paging$/,
  },
  "a 500 on bad input": {
    listener: "rpc",
    fault: {
      reply(_request, reply) {
        if (isParseError(reply)) reply.status = 500;
      },
    },
    caughtBy: /^rpc query view_account: account_id badly encoded$/,
  },
  "a hang on bad input (EXPERIMENTAL_receipt)": {
    listener: "rpc",
    fault: {
      reply: (request, reply) => (isParseError(reply) && request.json?.method === "EXPERIMENTAL_receipt" ? "hang" : undefined),
    },
    caughtBy: /^rpc EXPERIMENTAL_receipt receipt_refund: receipt_id badly encoded$/,
    timeoutMs: 1500,
  },
  "final answered with the optimistic block": {
    listener: "rpc",
    fault: {
      request(request) {
        if (request.json?.method === "block" && request.json.params?.finality === "final") request.json.params.finality = "optimistic";
      },
    },
    caughtBy: /^finality ordering/,
  },
  "a corrupted state proof": {
    listener: "rpc",
    fault: {
      reply(request, reply) {
        const proof: string[] | undefined = reply.json?.result?.proof;
        if (isViewState(request) && proof?.[0] !== undefined) {
          const bytes = Buffer.from(proof[0], "base64");
          bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
          proof[0] = bytes.toString("base64");
        }
      },
    },
    caughtBy: /^view_state proof verifies/,
  },
  "an archival listener that garbage-collects": {
    listener: "archival",
    fault: {
      reply(request, reply) {
        const params = request.json?.params;
        if (typeof params?.block_id === "number" && params.block_id <= 1) {
          reply.json = {
            jsonrpc: "2.0",
            id: request.json.id,
            error: {
              name: "HANDLER_ERROR",
              cause: { name: "GARBAGE_COLLECTED_BLOCK", info: { block_height: params.block_id, block_hash: "11111111111111111111111111111111" } },
              code: -32000,
              message: "Server error",
              data: "garbage collected",
            },
          };
          reply.status = 200;
        }
      },
    },
    caughtBy: /^retention: regular vs archival$/,
  },
  "a renamed REST field (account_id -> accountId)": {
    listener: "api",
    fault: {
      reply(request, reply) {
        if (request.path.endsWith("/full") && reply.status === 200 && reply.json?.account_id !== undefined) {
          reply.json.accountId = reply.json.account_id;
          delete reply.json.account_id;
        }
      },
    },
    caughtBy: /^rest GET \/v1\/account\/\{account_id\}\/full$/,
  },
  "a 403 sent as JSON": {
    listener: "rpc",
    fault: {
      reply(_request, reply) {
        if (reply.status === 403) {
          reply.contentType = "application/json";
          reply.json = { error: reply.text };
        }
      },
    },
    caughtBy: /^rpc: unknown key \(Bearer\) gets 403 text\/plain$/,
    withApiKey: true,
  },
};

async function runAgainst(mutation: Mutation | undefined) {
  const urls = { rpc: service.rpcUrl, archival: service.archivalUrl, api: service.apiUrl! };
  const proxy = mutation === undefined ? undefined : await startFaultyProxy(urls[mutation.listener], mutation.fault);
  if (proxy !== undefined && mutation !== undefined) urls[mutation.listener] = proxy.url;
  try {
    const options: ContractTestOptions = {
      rpcUrl: urls.rpc,
      archivalUrl: urls.archival,
      apiUrl: urls.api,
      timeoutMs: mutation?.timeoutMs ?? 20_000,
      ...(mutation?.withApiKey === true && { apiKey: API_KEY }),
    };
    return await runContractTests(options);
  } finally {
    await proxy?.close();
  }
}

describe("mutation check: the suite catches deliberately injected faults", () => {
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "shardkit-mutation-"));
    const keysFile = join(dir, "keys.json");
    await writeFile(keysFile, JSON.stringify({ keys: [{ key: API_KEY, name: "ci" }] }));
    service = await startService({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, apiPort: 0, retention: 60, keysFile, chain: { blockTimeMs: 50 } });
    while (service.chain.head().height < 65) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(() => service?.close());

  it("passes through a fault-free proxy (the proxy itself changes nothing)", async () => {
    const proxy = await startFaultyProxy(service.rpcUrl, {});
    try {
      const report = await runContractTests({ rpcUrl: proxy.url, archivalUrl: service.archivalUrl, apiUrl: service.apiUrl!, apiKey: API_KEY });
      expect(report.results.filter((r) => r.outcome === "fail").map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it.each(Object.entries(mutations))("catches %s", async (_name, mutation) => {
    const report = await runAgainst(mutation);
    const failures = report.results.filter((r) => r.outcome === "fail");
    const catching = failures.filter((r) => mutation.caughtBy.test(r.name));
    expect(catching.map((r) => r.name), `failures: ${failures.map((r) => r.name).join(", ")}`).not.toEqual([]);
    for (const failure of catching) {
      expect(failure.message).toBeTruthy();
      expect(failure.curl).toMatch(/^curl /);
    }
  }, 60_000);
});
