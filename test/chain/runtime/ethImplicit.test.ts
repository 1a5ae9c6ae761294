import { describe, expect, it } from "vitest";
import { CREATE_ACCOUNT_CHARGE, GAS_PRICE, NEAR, ROOT, balanceOf, openChain, outcomeOf, settle, submit } from "./helpers.js";

// ETH-implicit accounts (NEP-518; nearcore protocol 83+, _DeprecatedEthImplicitGlobalContract):
// a lone Transfer to "0x" + 40 hex creates the account with nearcore's ETH wallet contract as a
// global contract by code hash (per chain id), no key and no code.
const ETH = "0x" + "ab".repeat(20);

describe("ETH-implicit accounts", () => {
  it("a lone transfer creates the account using the wallet contract by hash: 132 bytes, no key; the create-account fees on top", async () => {
    const chain = await openChain();
    const root0 = balanceOf(chain, ROOT);
    const s = settle(chain, submit(chain, ROOT, ETH, [{ type: "Transfer", deposit: NEAR }]));
    expect(outcomeOf(s).status).toEqual({ SuccessValue: "" });
    const account = chain.at(chain.head()).account(ETH)!;
    expect(account).toMatchObject({
      amount: NEAR,
      storageUsage: 132, // 100 + the 32-byte code hash
      codeHash: "11111111111111111111111111111111",
      // sha256 of nearcore's wallet_contract_localnet.wasm (this dev chain's id is "localnet")
      globalContractHash: "FAq9tQRbwJPTV3PQLn2F7AUD3FW2Fw1V8ZeZuazfeu1v",
    });
    expect(chain.at(chain.head()).accessKeys(ETH)).toEqual([]);
    // Fees: a transfer plus create_account (no key is added).
    const sendGas = 108_059_500_000n + 115_123_062_500n + 500_000_000_000n;
    const execGas = 108_059_500_000n + 115_123_062_500n + 7_200_000_000_000n;
    const [main] = outcomeOf(s).receipts_outcome;
    expect(outcomeOf(s).transaction_outcome.outcome.gas_burnt).toBe(Number(sendGas));
    expect(main!.outcome).toMatchObject({
      gas_burnt: Number(execGas),
      tokens_burnt: (execGas * GAS_PRICE + CREATE_ACCOUNT_CHARGE).toString(),
      metadata: { version: 4, contracts: [null] },
    });
    expect(balanceOf(chain, ROOT)).toBe(root0 - NEAR - (sendGas + execGas) * GAS_PRICE - CREATE_ACCOUNT_CHARGE);
    // A second transfer just credits it.
    settle(chain, submit(chain, ROOT, ETH, [{ type: "Transfer", deposit: 1n }]));
    expect(chain.at(chain.head()).account(ETH)!.amount).toBe(NEAR + 1n);
  });

  it("uses the mainnet and testnet wallet contract hashes on those chains", async () => {
    for (const [chainId, hash] of [
      ["mainnet", "2zodJZK2e4nnv5AqwCRnenNSmkikXhEd7PPY6BmfTmW4"],
      ["testnet", "3PpYvRxBfC5BkZxTw8ZFG3D52w1ZRhvDDWirKoxphMDn"],
    ] as const) {
      const chain = await openChain({ chainId });
      settle(chain, submit(chain, ROOT, ETH, [{ type: "Transfer", deposit: NEAR }]));
      expect(chain.at(chain.head()).account(ETH)!.globalContractHash).toBe(hash);
    }
  });

  it("only a lone transfer creates one: CreateAccount is OnlyImplicitAccountCreationAllowed, a batch AccountDoesNotExist", async () => {
    const chain = await openChain();
    const failureOf = (kind: unknown) => ({ Failure: { ActionError: { index: 0, kind } } });
    expect(outcomeOf(settle(chain, submit(chain, ROOT, ETH, [{ type: "CreateAccount" }]))).status).toEqual(
      failureOf({ OnlyImplicitAccountCreationAllowed: { account_id: ETH } }),
    );
    const twice = [{ type: "Transfer" as const, deposit: 1n }, { type: "Transfer" as const, deposit: 1n }];
    expect(outcomeOf(settle(chain, submit(chain, ROOT, ETH, twice))).status).toEqual(failureOf({ AccountDoesNotExist: { account_id: ETH } }));
    expect(chain.at(chain.head()).account(ETH)).toBeUndefined();
  });
});
