import { describe, expect, it } from "vitest";
import {
  DEV_CONTRACTS,
  FT_ACCOUNT,
  FT_INIT,
  KV_ACCOUNT,
  NFT_ACCOUNT,
  NFT_INIT,
  POOL_ACCOUNT,
  POOL_INIT,
  RELAY_ACCOUNT,
} from "../../src/chain/genesis/devGenesis.js";
import { fixtureContractCode } from "../../src/chain/genesis/fixtureContractCode.js";
import {
  ftInitState,
  nftInitState,
  stakingPoolInitState,
  type ContractEntry,
} from "../../src/chain/genesis/fixtureContractState.js";
import { Chain } from "../../src/chain/node.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../../src/chain/primitives/sha256.js";
import { MockedBlockchain, contractWasm } from "./support/MockedBlockchain.js";

const latin1 = (entries: ContractEntry[]) =>
  entries
    .map((e) => [Buffer.from(e.key).toString("latin1"), Buffer.from(e.value).toString("hex")])
    .sort(([a], [b]) => (a! < b! ? -1 : 1));
const mocked = (m: MockedBlockchain) => m.entries().map(([k, v]) => [k, Buffer.from(v).toString("hex")]);

describe("dev genesis contract state equals what each contract's own `new` writes", () => {
  it("ft", () => {
    const ft = new MockedBlockchain(contractWasm("ft"), FT_ACCOUNT);
    ft.call("new", {
      owner_id: FT_INIT.ownerId,
      total_supply: FT_INIT.totalSupply.toString(),
      metadata: { spec: "ft-1.0.0", name: FT_INIT.name, symbol: FT_INIT.symbol, decimals: FT_INIT.decimals },
    });
    expect(latin1(ftInitState(FT_INIT))).toEqual(mocked(ft));
  });

  it("nft", () => {
    const nft = new MockedBlockchain(contractWasm("nft"), NFT_ACCOUNT);
    nft.call("new", {
      owner_id: NFT_INIT.ownerId,
      metadata: { spec: "nft-1.0.0", name: NFT_INIT.name, symbol: NFT_INIT.symbol },
    });
    expect(latin1(nftInitState(NFT_INIT.ownerId, NFT_INIT.name, NFT_INIT.symbol))).toEqual(mocked(nft));
  });

  it("staking-pool", () => {
    const pool = new MockedBlockchain(contractWasm("staking-pool"), POOL_ACCOUNT);
    pool.call(
      "new",
      {
        owner_id: POOL_INIT.ownerId,
        stake_public_key: POOL_INIT.stakePublicKey,
        reward_fee_fraction: POOL_INIT.rewardFeeFraction,
      },
      { epochHeight: POOL_INIT.epochHeight, balance: POOL_INIT.accountBalance },
    );
    expect(latin1(stakingPoolInitState(POOL_INIT))).toEqual(mocked(pool));
  });
});

describe("fixture contracts on the dev chain", async () => {
  const chain = await Chain.open({ blockTimeMs: 0, now: () => 1_700_000_000_000 });
  const g = chain.genesisBlock;
  const view = (accountId: string, method: string, args: unknown = {}) => {
    const r = chain.at(g).callFunction(accountId, method, new TextEncoder().encode(JSON.stringify(args)));
    if (!r.ok) throw new Error(r.message);
    return JSON.parse(Buffer.from(r.result).toString()) as unknown;
  };

  it("deploys each contract's committed wasm, code hash and storage included", () => {
    for (const [accountId, name] of DEV_CONTRACTS) {
      const code = fixtureContractCode(name);
      expect(Buffer.from(chain.at(g).code(accountId)!).equals(Buffer.from(code))).toBe(true);
      expect(chain.at(g).account(accountId)!.codeHash).toBe(base58Encode(sha256(code)));
    }
    const stateBytes = (entries: ContractEntry[]) =>
      entries.reduce((n, e) => n + e.key.length + e.value.length + 40, 0);
    expect(chain.at(g).account(FT_ACCOUNT)!.storageUsage).toBe(
      182 + fixtureContractCode("ft").length + stateBytes(ftInitState(FT_INIT)),
    );
    expect(chain.at(g).account(RELAY_ACCOUNT)!.storageUsage).toBe(182 + fixtureContractCode("relay").length);
  });

  it("answers views from the genesis state", () => {
    expect(view(FT_ACCOUNT, "ft_balance_of", { account_id: "test.near" })).toBe(FT_INIT.totalSupply.toString());
    expect(view(FT_ACCOUNT, "ft_total_supply")).toBe(FT_INIT.totalSupply.toString());
    expect(view(FT_ACCOUNT, "storage_balance_bounds")).toEqual({
      min: "1250000000000000000000",
      max: "1250000000000000000000",
    });
    expect(view(FT_ACCOUNT, "ft_metadata")).toMatchObject({ spec: "ft-1.0.0", symbol: "SKT", decimals: 18 });
    expect(view(NFT_ACCOUNT, "nft_metadata")).toMatchObject({ spec: "nft-1.0.0", name: NFT_INIT.name });
    expect(view(NFT_ACCOUNT, "nft_total_supply")).toBe("0");
    expect(view(POOL_ACCOUNT, "get_owner_id")).toBe("test.near");
    expect(view(POOL_ACCOUNT, "get_staking_key")).toBe(POOL_INIT.stakePublicKey);
    expect(view(POOL_ACCOUNT, "get_total_staked_balance")).toBe("0");
    expect(view(KV_ACCOUNT, "get", { key: "STATE" })).toBe("shardkit kv fixture");
    const a0 = Buffer.from(sha256(new TextEncoder().encode("a:0000")).slice(0, 16)).toString("base64");
    expect(view(KV_ACCOUNT, "get", { key: Buffer.from("a:0000").toString("base64"), encoding: "base64" })).toBe(a0);
    expect(view(RELAY_ACCOUNT, "echo", { hello: "world" })).toEqual({ hello: "world" });
  });
});
