import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as jsonrpc from "@near-js/jsonrpc-client";
import { NearRpcClient } from "@near-js/jsonrpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpcMethodNames } from "../../generated/rpc/methods.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, signedTx } from "../chain/runtime/helpers.js";
import { rpc, startTestService } from "../server/harness.js";

/*
 * Issue 9: @near-js/jsonrpc-client 1.4 checks every response it receives against zod schemas
 * generated from nearcore's own openapi.json (its root export is the validated build: each
 * method parses the request, calls, then parses the response and throws "Response validation
 * failed" on any missing or mistyped field). Every function the package exports is listed
 * below: an RPC method we serve gets a real call over HTTP with that validation on, and
 * anything else says why it is not called.
 */

let service: Service;
let client: NearRpcClient;
const NEAR = 10n ** 24n;

/** A settled cross-shard transfer and the block that included it. */
let transfer: { hash: string; base64: string; blockHash: string; blockHeight: number; receiptId: string };

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const served = (method: string) => (rpcMethodNames as readonly string[]).includes(method);

beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
  client = new NearRpcClient({ endpoint: service.rpcUrl, retries: 0 });
  const base64 = b64(signedTx(service.chain, ALICE, CAROL, [{ type: "Transfer", deposit: NEAR }]));
  const sent = await rpc(service.rpcUrl, "send_tx", { signed_tx_base64: base64, wait_until: "FINAL" });
  const outcome = sent.body.result;
  const blockHash = outcome.transaction_outcome.block_hash as string;
  const included = await rpc(service.rpcUrl, "block", { block_id: blockHash });
  transfer = {
    hash: outcome.transaction.hash,
    base64,
    blockHash,
    blockHeight: included.body.result.header.height,
    receiptId: outcome.transaction_outcome.outcome.receipt_ids[0],
  };
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

/**
 * A call whose result the client has validated against nearcore's schema, then checked on values;
 * the method must be one we serve (the list is generated from the spec).
 */
async function validated(method: string, call: () => Promise<unknown>, check: (result: any) => void): Promise<void> {
  expect(served(method), `${method} is served`).toBe(true);
  check(await call());
}

/** A final block after the transfer, as a light client's head. */
const lightClientHead = () => service.chain.blockByFinality("final").hash;
const transferProofRequest = () => ({
  type: "transaction" as const,
  transactionHash: transfer.hash,
  senderId: ALICE,
  lightClientHead: lightClientHead(),
});

type Check = () => Promise<void>;

/** Every function exported by the package, by name: how we exercise it or why we do not. */
const coverage: Record<string, Check | { notCalled: string }> = {
  block: async () => {
    const head = service.chain.head();
    const byHeight = await jsonrpc.block(client, { blockId: transfer.blockHeight });
    expect(byHeight.header.hash).toBe(transfer.blockHash);
    expect(byHeight.chunks).toHaveLength(4);
    expect((await jsonrpc.block(client, { finality: "optimistic" })).header.height).toBe(head.height);
  },
  blockEffects: async () => {
    const effects = await jsonrpc.blockEffects(client, { blockId: transfer.blockHeight });
    expect(effects.blockHash).toBe(transfer.blockHash);
    expect(effects.changes.some((c) => "accountId" in c && c.accountId === ALICE)).toBe(true);
  },
  broadcastTxAsync: async () => {
    const base64 = b64(signedTx(service.chain, BOB, ALICE, [{ type: "Transfer", deposit: 1n }]));
    const hash = await jsonrpc.broadcastTxAsync(client, { signedTxBase64: base64 });
    expect(hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    for (let i = 0; i < 3; i++) service.chain.produceBlock();
  },
  broadcastTxCommit: async () => {
    const base64 = b64(signedTx(service.chain, BOB, CAROL, [{ type: "Transfer", deposit: 1n }]));
    const outcome = await jsonrpc.broadcastTxCommit(client, { signedTxBase64: base64 });
    expect(outcome.status).toEqual({ SuccessValue: "" });
    expect(outcome.receiptsOutcome.length).toBeGreaterThan(0);
  },
  changes: async () =>
    validated(
      "changes",
      () => jsonrpc.changes(client, { changesType: "account_changes", accountIds: [ALICE], blockId: transfer.blockHeight } as never),
      (r) => expect(r.blockHash).toBe(transfer.blockHash),
    ),
  chunk: async () => {
    const block = await jsonrpc.block(client, { blockId: transfer.blockHeight });
    const withTx = block.chunks.find((c) => c.shardId === service.chain.shardLayout.shardIdOf(ALICE))!;
    const chunk = await jsonrpc.chunk(client, { chunkId: withTx.chunkHash });
    expect(chunk.transactions.map((t) => t.hash)).toContain(transfer.hash);
    const same = await jsonrpc.chunk(client, { blockId: transfer.blockHeight, shardId: withTx.shardId });
    expect(same.header.chunkHash).toBe(withTx.chunkHash);
  },
  clientConfig: async () => {
    const config = await jsonrpc.clientConfig(client);
    expect(config.chainId).toBe(service.chain.chainId);
  },
  experimentalChanges: async () =>
    validated(
      "EXPERIMENTAL_changes",
      () => jsonrpc.experimentalChanges(client, { changesType: "account_changes", accountIds: [ALICE], blockId: transfer.blockHeight } as never),
      (r) => expect(r.blockHash).toBe(transfer.blockHash),
    ),
  experimentalChangesInBlock: async () => {
    const changes = await jsonrpc.experimentalChangesInBlock(client, { blockId: transfer.blockHeight });
    expect(changes.blockHash).toBe(transfer.blockHash);
    expect(changes.changes.length).toBeGreaterThan(0);
  },
  experimentalCongestionLevel: async () => {
    const level = await jsonrpc.experimentalCongestionLevel(client, { blockId: transfer.blockHeight, shardId: 0 });
    expect(level.congestionLevel).toBe(0);
  },
  experimentalGenesisConfig: async () => {
    const genesis = await jsonrpc.experimentalGenesisConfig(client);
    expect(genesis.chainId).toBe(service.chain.chainId);
  },
  experimentalLightClientBlockProof: async () =>
    validated(
      "EXPERIMENTAL_light_client_block_proof",
      () => jsonrpc.experimentalLightClientBlockProof(client, { blockHash: transfer.blockHash, lightClientHead: lightClientHead() }),
      (r) => expect(r.blockHeaderLite.innerLite.height).toBe(transfer.blockHeight),
    ),
  experimentalLightClientProof: async () =>
    validated(
      "EXPERIMENTAL_light_client_proof",
      () => jsonrpc.experimentalLightClientProof(client, transferProofRequest()),
      (r) => expect(r.outcomeProof.id).toBe(transfer.hash),
    ),
  experimentalMaintenanceWindows: async () => {
    // The package has no response schema for this method (nothing to validate); the call still
    // goes over HTTP and its request is validated.
    const windows = await jsonrpc.experimentalMaintenanceWindows(client, { accountId: service.chain.blockProducer.accountId });
    expect(windows).toEqual([]);
  },
  experimentalProtocolConfig: async () => {
    const config = await jsonrpc.experimentalProtocolConfig(client, { finality: "final" });
    expect(config.runtimeConfig.wasmConfig.extCosts.base).toBe(264_768_111);
  },
  experimentalReceipt: async () => {
    const receipt = await jsonrpc.experimentalReceipt(client, { receiptId: transfer.receiptId });
    expect(receipt.receiverId).toBe(CAROL);
  },
  experimentalSplitStorageInfo: async () => {
    const info = await jsonrpc.experimentalSplitStorageInfo(client, {});
    expect(info.headHeight).toBeTypeOf("number");
  },
  experimentalTxStatus: async () => {
    const status = await jsonrpc.experimentalTxStatus(client, { txHash: transfer.hash, senderAccountId: ALICE, waitUntil: "FINAL" });
    expect("receipts" in status && status.receipts.length).toBeGreaterThan(0);
    expect(status.finalExecutionStatus).toBe("FINAL");
  },
  experimentalValidatorsOrdered: async () => {
    // No response schema in the package either; the request is validated.
    // Its declared result type is the whole JSON-RPC envelope, though it returns the result.
    const ordered = (await jsonrpc.experimentalValidatorsOrdered(client, { blockId: null })) as unknown as { accountId: string }[];
    expect(ordered.map((v) => v.accountId)).toEqual([service.chain.blockProducer.accountId]);
  },
  gasPrice: async () => {
    expect((await jsonrpc.gasPrice(client, { blockId: transfer.blockHeight })).gasPrice).toBe("100000000");
  },
  genesisConfig: async () => {
    expect((await jsonrpc.genesisConfig(client)).protocolVersion).toBe(service.chain.protocolVersion);
  },
  health: async () => {
    expect(await jsonrpc.health(client)).toBeNull();
  },
  lightClientProof: async () =>
    validated(
      "light_client_proof",
      () => jsonrpc.lightClientProof(client, transferProofRequest()),
      (r) => expect(r.outcomeProof.id).toBe(transfer.hash),
    ),
  maintenanceWindows: async () => {
    // ALICE produces nothing: the rest of the epoch is one window, as our own wire says.
    const windows = await jsonrpc.maintenanceWindows(client, { accountId: ALICE });
    expect(windows).toEqual((await rpc(service.rpcUrl, "maintenance_windows", { account_id: ALICE })).body.result);
    expect(windows).toHaveLength(1);
  },
  networkInfo: async () => {
    expect((await jsonrpc.networkInfo(client)).numActivePeers).toBe(0);
  },
  nextLightClientBlock: async () =>
    validated(
      "next_light_client_block",
      () => jsonrpc.nextLightClientBlock(client, { lastBlockHash: transfer.blockHash }),
      (r) => expect(r).toBeTypeOf("object"),
    ),
  query: async () => {
    const code = await jsonrpc.query(client, { requestType: "view_code", accountId: "ft.test.near", finality: "final" });
    expect("codeBase64" in code && code.codeBase64.length).toBeGreaterThan(0);
    const keys = await jsonrpc.query(client, { requestType: "view_access_key_list", accountId: BOB, finality: "final" });
    expect("keys" in keys && keys.keys).toHaveLength(1);
    const state = await jsonrpc.query(client, {
      requestType: "view_state",
      accountId: "kv.test.near",
      prefixBase64: b64(new TextEncoder().encode("c:")),
      // kv.test.near holds more than an unpaginated view_state may return: page it (nearcore 2.13).
      limit: 3,
      finality: "final",
    } as never);
    expect("values" in state && state.values.map((v) => Buffer.from(v.key, "base64").toString())).toEqual(["c:0000", "c:0001", "c:0002"]);
  },
  sendTx: async () => {
    const base64 = b64(signedTx(service.chain, CAROL, BOB, [{ type: "Transfer", deposit: 2n }]));
    const outcome = await jsonrpc.sendTx(client, { signedTxBase64: base64, waitUntil: "EXECUTED_OPTIMISTIC" });
    expect(outcome.finalExecutionStatus).toBe("EXECUTED_OPTIMISTIC");
  },
  status: async () => {
    const status = await jsonrpc.status(client);
    expect(status.chainId).toBe(service.chain.chainId);
  },
  tx: async () => {
    const outcome = await jsonrpc.tx(client, { txHash: transfer.hash, senderAccountId: ALICE });
    expect(outcome.transaction?.hash).toBe(transfer.hash);
  },
  validators: async () => {
    const validators = await jsonrpc.validators(client, "latest");
    expect(validators.currentValidators.map((v) => v.accountId)).toEqual([service.chain.blockProducer.accountId]);
  },
  viewAccessKey: async () => {
    const key = await jsonrpc.viewAccessKey(client, { accountId: CAROL, publicKey: devKeyPair(CAROL).publicKeyString, finality: "final" });
    expect(key.permission).toBe("FullAccess");
  },
  viewAccount: async () => {
    const account = await jsonrpc.viewAccount(client, { accountId: CAROL, finality: "final" });
    expect(BigInt(account.amount)).toBeGreaterThan(10_000n * NEAR);
  },
  viewFunction: async () => {
    const args = b64(new TextEncoder().encode(JSON.stringify({ account_id: "test.near" })));
    const result = await jsonrpc.viewFunction(client, { accountId: "ft.test.near", methodName: "ft_balance_of", argsBase64: args });
    expect(jsonrpc.parseCallResultToJson(result)).toMatch(/^[0-9]+$/);
  },
  viewFunctionAsJson: async () => {
    // Calls the package's unvalidated query internally (a quirk of 1.4.0); viewFunction above is
    // the validated path of the same request.
    const metadata = await jsonrpc.viewFunctionAsJson(client, { accountId: "ft.test.near", methodName: "ft_metadata" });
    expect(metadata).toMatchObject({ spec: "ft-1.0.0" });
  },
  parseCallResultToJson: { notCalled: "a local helper (bytes to JSON), no RPC; used by viewFunction above" },
  enableValidation: { notCalled: "a no-op in 1.4.0: the root export always validates" },
  defaultClient: { notCalled: "a client bound to mainnet's public RPC, not to our server" },
  default: { notCalled: "NearRpcClient itself (the default export)" },
  NearRpcClient: { notCalled: "the client class every call above uses" },
  JsonRpcClientError: { notCalled: "error class" },
  JsonRpcNetworkError: { notCalled: "error class" },
  NearRpcError: { notCalled: "error class" },
  JsonRpcRequestSchema: { notCalled: "zod schema of the request envelope, no RPC" },
  JsonRpcResponseSchema: { notCalled: "zod schema of the response envelope, no RPC" },
  RPC_METHODS: { notCalled: "the list of method names (a constant)" },
};

describe("@near-js/jsonrpc-client 1.4 with response validation on, against our server", () => {
  it("covers every export of the package", () => {
    expect(Object.keys(coverage).sort()).toEqual(Object.keys(jsonrpc).sort());
  });

  it("calls every RPC method the package lists", () => {
    // Each method has its own function (experimental ones camel-cased with an `experimental` prefix).
    const functionOf = (method: string) =>
      method.replace(/^EXPERIMENTAL_/, "experimental_").replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    for (const method of jsonrpc.RPC_METHODS) expect(typeof coverage[functionOf(method)], method).toBe("function");
  });

  it("really validates: a response missing nearcore's witness_config is refused", async () => {
    const config = (await rpc(service.rpcUrl, "EXPERIMENTAL_protocol_config", { finality: "final" })).body.result;
    delete config.runtime_config.witness_config;
    const server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id: "dontcare", result: config }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const stub = new NearRpcClient({ endpoint: `http://127.0.0.1:${port}`, retries: 0 });
      await expect(jsonrpc.experimentalProtocolConfig(stub, { finality: "final" })).rejects.toThrow(/Response validation failed[\s\S]*witnessConfig/);
    } finally {
      server.close();
    }
  });

  for (const [name, check] of Object.entries(coverage)) {
    if (typeof check === "function") it(`${name}`, check);
  }
});
