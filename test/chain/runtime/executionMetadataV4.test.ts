import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import type { Chain } from "../../../src/chain/node.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, CAROL, NEAR, openChain, outcomeOf, settle, submit } from "./helpers.js";

// ExecutionMetadata V4 (protocol 85): per action of a receipt, the receiver's contract just
// before the action ran; None (null) for no contract, no account yet, or unexecuted slots.
const KV = readFileSync(new URL("../../../contracts/build/kv.wasm", import.meta.url));
const KV_HASH = base58Encode(sha256(KV));
const call = (methodName: string, args: unknown = {}): Action => ({
  type: "FunctionCall",
  methodName,
  args: Buffer.from(JSON.stringify(args)),
  gas: 30_000_000_000_000n,
  deposit: 0n,
});

/** The metadata of the transaction's first receipt outcome (the one on the receiver). */
function firstReceiptMetadata(chain: Chain, signer: string, receiver: string, actions: Action[]) {
  const o = outcomeOf(settle(chain, submit(chain, signer, receiver, actions)));
  expect(o.transaction_outcome.outcome.metadata).toEqual({ version: 1, gas_profile: null });
  return { status: o.status, metadata: o.receipts_outcome[0]!.outcome.metadata as { version: number; contracts: unknown[] } };
}

describe("ExecutionMetadata V4", () => {
  it("an account without a contract: null; a local contract: its code hash", async () => {
    const chain = await openChain();
    const transfer = firstReceiptMetadata(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    expect(transfer.metadata).toEqual({ version: 4, gas_profile: [], contracts: [null] });

    const kv = "kv.test.near";
    const kvHash = chain.at(chain.head()).account(kv)!.codeHash;
    const set = firstReceiptMetadata(chain, ALICE, kv, [call("set", { key: "a", value: "b" }), call("set", { key: "c", value: "d" })]);
    expect(set.status).toEqual({ SuccessValue: "" });
    expect(set.metadata.version).toBe(4);
    expect(set.metadata.contracts).toEqual([{ local: kvHash }, { local: kvHash }]);
  });

  it("follows the account through the receipt: CreateAccount and DeployContract slots see none, the call after sees the deployed code", async () => {
    const chain = await openChain();
    const id = `fresh.${ALICE}`;
    const r = firstReceiptMetadata(chain, ALICE, id, [
      { type: "CreateAccount" },
      { type: "Transfer", deposit: 10n * NEAR },
      { type: "DeployContract", code: KV },
      call("set", { key: "k", value: "v" }),
    ]);
    expect(r.status).toEqual({ SuccessValue: "" });
    expect(r.metadata.contracts).toEqual([null, null, null, { local: KV_HASH }]);
  });

  it("a failing action's slot is recorded and the slots after it are padded with null", async () => {
    const chain = await openChain();
    const id = `fails.${ALICE}`;
    const r = firstReceiptMetadata(chain, ALICE, id, [
      { type: "CreateAccount" },
      { type: "Transfer", deposit: 10n * NEAR },
      { type: "DeployContract", code: KV },
      call("no_such_method"),
      { type: "Transfer", deposit: 1n },
    ]);
    expect(r.status).toMatchObject({ Failure: { ActionError: { index: 3 } } });
    expect(r.metadata.contracts).toEqual([null, null, null, { local: KV_HASH }, null]);
  });

  it("a global contract by code hash and by account id", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeployGlobalContract", code: KV, deployMode: "CodeHash" }]));
    settle(chain, submit(chain, CAROL, CAROL, [{ type: "DeployGlobalContract", code: KV, deployMode: "AccountId" }]));
    for (let i = 0; i < 4; i++) chain.produceBlock(); // the code reaches every shard
    const byHash = firstReceiptMetadata(chain, BOB, BOB, [
      { type: "UseGlobalContract", contractIdentifier: { kind: "CodeHash", codeHash: sha256(KV) } },
      call("set", { key: "k", value: "v" }),
    ]);
    expect(byHash.status).toEqual({ SuccessValue: "" });
    expect(byHash.metadata.contracts).toEqual([null, { global_hash: KV_HASH }]);
    const byAccount = firstReceiptMetadata(chain, BOB, BOB, [
      { type: "UseGlobalContract", contractIdentifier: { kind: "AccountId", accountId: CAROL } },
      call("set", { key: "k", value: "w" }),
    ]);
    expect(byAccount.status).toEqual({ SuccessValue: "" });
    expect(byAccount.metadata.contracts).toEqual([{ global_hash: KV_HASH }, { global_account_id: CAROL }]);
  });
});
