import { Account, JsonRpcProvider } from "near-api-js-7";
import { AccessKeyDoesNotExistError, AccountDoesNotExistError, ContractMethodNotFoundError, UnknownBlockError } from "near-api-js-7/rpc-errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT, FT_INIT, KV_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { rpc, startTestService } from "../server/harness.js";

// near-api-js 7 (the current major: one package again, typed RPC errors) reading from our
// server: the same read flows test/compat/readClients.test.ts runs with near-api-js 6.5.
let service: Service;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

const alicePk = devKeyPair("alice.test.near").publicKeyString;
const NEAR = 10n ** 24n;
const provider = () => new JsonRpcProvider({ url: service.rpcUrl });

describe("near-api-js 7 JsonRpcProvider", () => {
  it("reads accounts, access keys, blocks, chunks, gas price, status and validators", async () => {
    const p = provider();
    const account = await p.viewAccount({ accountId: "alice.test.near", blockQuery: { finality: "final" } });
    expect(account.amount).toBe(10_000n * NEAR);
    expect(account.storage_usage).toBe(182);
    const key = await p.viewAccessKey({ accountId: "alice.test.near", publicKey: alicePk, finalityQuery: { finality: "optimistic" } });
    expect(key.permission).toBe("FullAccess");
    expect(key.nonce).toBe(0n);
    expect((await p.viewAccessKeyList({ accountId: "bob.test.near", finalityQuery: { finality: "final" } })).keys).toHaveLength(1);
    const head = service.chain.head();
    const block = await p.viewBlock({ finality: "optimistic" });
    expect(block.header.hash).toBe(head.hash);
    expect((await p.viewBlock({ blockId: head.height })).header.height).toBe(head.height);
    const chunk = await p.viewChunk(block.chunks[0]!.chunk_hash);
    expect(chunk.header.chunk_hash).toBe(block.chunks[0]!.chunk_hash);
    expect((await p.viewGasPrice()).gas_price).toBe("100000000");
    expect((await p.viewNodeStatus()).chain_id).toBe(service.chain.chainId);
    expect(await p.getNetworkId()).toBe(service.chain.chainId);
    const validators = await p.viewValidators();
    expect(validators.current_validators.map((v) => v.account_id)).toEqual([service.chain.blockProducer.accountId]);
  });

  it("reads contract code, state and view calls on the fixture contracts", async () => {
    const p = provider();
    const ft = await p.viewAccount({ accountId: FT_ACCOUNT, blockQuery: { finality: "final" } });
    const code = await p.viewContractCode({ contractId: FT_ACCOUNT, blockQuery: { finality: "final" } });
    expect(code.hash).toBe(ft.code_hash);
    expect(code.code.length).toBeGreaterThan(0);
    const balance = await p.callFunction<string>({
      contractId: FT_ACCOUNT,
      method: "ft_balance_of",
      args: { account_id: FT_INIT.ownerId },
      blockQuery: { finality: "final" },
    });
    expect(balance).toBe(FT_INIT.totalSupply.toString());
    expect(await p.callFunction({ contractId: FT_ACCOUNT, method: "ft_metadata", args: {} })).toMatchObject({
      spec: "ft-1.0.0",
      symbol: FT_INIT.symbol,
      decimals: FT_INIT.decimals,
    });
    // The contract's whole state through near-api-js equals our own view_state answer.
    const state = await p.viewContractState({ contractId: FT_ACCOUNT, blockQuery: { finality: "final" } });
    const ours = await rpc(service.rpcUrl, "query", { request_type: "view_state", account_id: FT_ACCOUNT, prefix_base64: "", finality: "final" });
    expect(state.values).toEqual(ours.body.result.values);
    // kv.test.near is larger than an unpaginated view_state may answer: page it (nearcore 2.13 params).
    const page = (await p.query({
      request_type: "view_state",
      finality: "final",
      account_id: KV_ACCOUNT,
      prefix_base64: Buffer.from("c:").toString("base64"),
      limit: 3,
    } as never)) as unknown as { values: { key: string }[] };
    expect(page.values.map((v) => Buffer.from(v.key, "base64").toString())).toEqual(["c:0000", "c:0001", "c:0002"]);
  });

  it("reads balances and state through Account", async () => {
    const alice = new Account("alice.test.near", provider());
    const storage = 182n * 10n ** 19n;
    const state = await alice.getState();
    expect(state.balance).toEqual({ total: 10_000n * NEAR, usedOnStorage: storage, locked: 0n, available: 10_000n * NEAR - storage });
    expect(state.storageUsage).toBe(182);
    expect(await alice.getBalance()).toBe(10_000n * NEAR - storage);
    expect((await alice.getAccessKeyList()).keys.map((k) => k.public_key)).toEqual([alicePk]);
  });

  it("turns our errors into its typed errors", async () => {
    const p = provider();
    await expect(p.viewAccount({ accountId: "nobody.test.near", blockQuery: { finality: "final" } })).rejects.toBeInstanceOf(AccountDoesNotExistError);
    const other = devKeyPair("carol.test.near").publicKeyString;
    await expect(p.viewAccessKey({ accountId: "alice.test.near", publicKey: other, finalityQuery: { finality: "final" } })).rejects.toBeInstanceOf(
      AccessKeyDoesNotExistError,
    );
    await expect(p.viewBlock({ blockId: 99_999 })).rejects.toBeInstanceOf(UnknownBlockError);
    await expect(p.callFunction({ contractId: FT_ACCOUNT, method: "no_such_method", args: {} })).rejects.toBeInstanceOf(ContractMethodNotFoundError);
  });
});
