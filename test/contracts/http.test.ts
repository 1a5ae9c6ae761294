import { Account, JsonRpcProvider, KeyPairSigner, type KeyPairString } from "near-api-js-7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT, FT_INIT, NFT_ACCOUNT, RELAY_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

// near-api-js 7 (the current major, one package again) signs and sends the calls over HTTP;
// the contracts' results and logs come back through send_tx / tx as a NEAR client sees them.
let service: Service;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

const TGAS = 10n ** 12n;
const account = (accountId: string) =>
  new Account(
    accountId,
    new JsonRpcProvider({ url: service.rpcUrl }),
    KeyPairSigner.fromSecretKey(devKeyPair(accountId).secretKeyString as KeyPairString),
  );
const view = (accountId: string, method: string, args: unknown) => {
  const r = service.chain.callFunction(
    service.chain.head(),
    accountId,
    method,
    new TextEncoder().encode(JSON.stringify(args)),
  );
  if (!r.ok) throw new Error(r.message);
  return JSON.parse(Buffer.from(r.result).toString()) as unknown;
};

describe("fixture contracts over HTTP with near-api-js 7", () => {
  it("ft_transfer_call to the relay returns the used amount after the refund callback", async () => {
    const root = account("test.near");
    await root.callFunction({
      contractId: FT_ACCOUNT,
      methodName: "storage_deposit",
      args: { account_id: RELAY_ACCOUNT },
      deposit: 1_250_000_000_000_000_000_000n,
      waitUntil: "FINAL",
    });
    const used = await root.callFunction({
      contractId: FT_ACCOUNT,
      methodName: "ft_transfer_call",
      args: { receiver_id: RELAY_ACCOUNT, amount: "1000", msg: "keep 250" },
      deposit: 1n,
      gas: 300n * TGAS,
      waitUntil: "FINAL",
    });
    expect(used).toBe("250");
    expect(view(FT_ACCOUNT, "ft_balance_of", { account_id: RELAY_ACCOUNT })).toBe("250");
    expect(view(FT_ACCOUNT, "ft_balance_of", { account_id: "test.near" })).toBe(
      (FT_INIT.totalSupply - 250n).toString(),
    );
  });

  it("nft_mint answers the token and logs the NEP-297 event", async () => {
    const outcome = await account("test.near").callFunctionRaw({
      contractId: NFT_ACCOUNT,
      methodName: "nft_mint",
      args: { token_id: "http-1", token_owner_id: "bob.test.near", token_metadata: { title: "Over HTTP" } },
      deposit: 10n ** 23n,
      waitUntil: "FINAL",
    });
    const token = JSON.parse(
      Buffer.from((outcome.status as { SuccessValue: string }).SuccessValue, "base64").toString(),
    ) as unknown;
    expect(token).toMatchObject({ token_id: "http-1", owner_id: "bob.test.near", metadata: { title: "Over HTTP" } });
    expect(outcome.receipts_outcome[0]!.outcome.logs).toEqual([
      'EVENT_JSON:{"standard":"nep171","version":"1.0.0","event":"nft_mint","data":[{"owner_id":"bob.test.near","token_ids":["http-1"]}]}',
    ]);
  });
});
