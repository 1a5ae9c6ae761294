import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import type { Chain } from "../../../src/chain/node.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../../src/chain/runtime/parameters.js";
import { dataIdToYieldIdKey, globalContractCodeKey, yieldIdToDataIdKey } from "../../../src/chain/runtime/runtimeTrieKeys.js";
import { ALICE, BOB, CAROL, balanceOf, openChain, outcomeOf, settle, submit, sumOfBalances } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { YIELD_ID } from "./yieldContract.js";

const b64 = (s: string | Uint8Array): string => Buffer.from(s).toString("base64");
const E = NEARCORE_RUNTIME_PARAMETERS.wasm.extCosts;
const TIMEOUT = NEARCORE_RUNTIME_PARAMETERS.wasm.yieldTimeoutLengthInBlocks;
const ID = new Uint8Array(32).fill(7);
const withPayload = (id: Uint8Array, payload: string): Uint8Array => Buffer.concat([id, Buffer.from(payload)]);

async function chainWithContract(): Promise<Chain> {
  const chain = await openChain();
  deploy(chain, ALICE, YIELD_ID);
  return chain;
}

/** ALICE's two yield-id mappings for `yieldId`: [data id, yield id back], undefined when gone. */
function mappings(chain: Chain, yieldId: Uint8Array): [string | undefined, string | undefined] {
  const shard = chain.at(chain.head()).shard(chain.shardOf(ALICE));
  const dataId = shard.get(yieldIdToDataIdKey(ALICE, yieldId));
  const back = dataId === undefined ? undefined : shard.get(dataIdToYieldIdKey(ALICE, Buffer.from(dataId, "latin1")));
  return [dataId, back];
}

/** Submits request_id(yieldId) and produces blocks until its yield is stored. */
function request(chain: Chain, yieldId: Uint8Array): { hash: string; yieldReceiptId: string } {
  const hash = submit(chain, CAROL, ALICE, [call("request_id", yieldId)]);
  const o = outcomeOf(settle(chain, hash, "EXECUTED_OPTIMISTIC"));
  expect(o.status).toBe("Started");
  const yieldReceiptId = o.receipts_outcome[0]!.outcome.receipt_ids[0]!;
  return { hash, yieldReceiptId };
}

describe("promise_yield_create_with_id / promise_yield_resume_with_yield_id end to end", () => {
  it("yields under a chosen id, refuses the id while it is pending (u64::MAX), resumes by id, then frees the id", async () => {
    const chain = await chainWithContract();
    const { hash, yieldReceiptId } = request(chain, ID);
    const [dataId, back] = mappings(chain, ID);
    expect(dataId).toHaveLength(32);
    expect(back).toBe(Buffer.from(ID).toString("latin1"));
    // The yielded receipt waits on that data id, and the create burnt yield_create_with_id_base.
    expect(chain.receipt(yieldReceiptId)!.receipt).toMatchObject({
      Action: { input_data_ids: [base58Encode(Buffer.from(dataId!, "latin1"))], is_promise_yield: true },
    });
    const created = outcomeOf(chain.transactionStatus(hash)!).receipts_outcome[0]!.outcome.metadata.gas_profile!;
    expect(created.find((e) => e.cost === "YIELD_CREATE_WITH_ID_BASE")?.gas_used).toBe(E.yield_create_with_id_base.toString());
    expect(created.find((e) => e.cost === "YIELD_CREATE_BASE")).toBeUndefined();

    // Same id again while pending: the host answers u64::MAX, the contract returns "dup".
    expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("request_id", ID)]))).status).toEqual({ SuccessValue: b64("dup") });

    // Resume by the id; an unknown id answers 0.
    expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("respond_id", withPayload(new Uint8Array(32).fill(8), "x"))]))).status).toEqual({
      SuccessValue: b64("0"),
    });
    expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("respond_id", withPayload(ID, "signed"))]))).status).toEqual({ SuccessValue: b64("1") });
    const done = outcomeOf(settle(chain, hash));
    expect(done.status).toEqual({ SuccessValue: b64("signed") });
    expect(done.receipts_outcome.find((r) => r.id === yieldReceiptId)!.outcome.logs).toEqual(["resumed"]);

    // The yield ran: both mappings are gone and the id can be used again.
    expect(mappings(chain, ID)).toEqual([undefined, undefined]);
    expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("respond_id", withPayload(ID, "late"))]))).status).toEqual({ SuccessValue: b64("0") });
    const again = request(chain, ID);
    expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("respond_id", withPayload(ID, "twice"))]))).status).toEqual({ SuccessValue: b64("1") });
    expect(outcomeOf(settle(chain, again.hash)).status).toEqual({ SuccessValue: b64("twice") });
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("a yield id that times out is freed when its callback runs", async () => {
    const chain = await chainWithContract();
    const { hash } = request(chain, ID);
    const yieldHeight = chain.blockByHash(outcomeOf(chain.transactionStatus(hash)!).receipts_outcome[0]!.block_hash)!.height;
    while (chain.head().height < yieldHeight + TIMEOUT - 1) chain.produceBlock();
    expect(mappings(chain, ID)[0]).toBeDefined();
    expect(outcomeOf(settle(chain, hash)).status).toEqual({ SuccessValue: b64("timeout") });
    expect(mappings(chain, ID)).toEqual([undefined, undefined]);
  });

  it("a malformed id fails the call with nearcore's YieldIdMalformed; a view may not yield by id", async () => {
    const chain = await chainWithContract();
    const bad = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("request_id", "short")]))).status;
    expect(bad).toMatchObject({ Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: "yield id is malformed" } } } } });
    expect(chain.at(chain.head()).callFunction(ALICE, "request_id", ID)).toMatchObject({
      ok: false,
      error: { ExecutionError: "promise_yield_create_with_id is not allowed in view calls" },
    });
  });
});

describe("one_yocto_on_promise on the chain", () => {
  it("a zero-balance account (a global contract, no storage stake) attaches 1 yoctoNEAR to a call; the yocto is minted into the supply", async () => {
    const chain = await chainWithContract();
    const codeHash = sha256(YIELD_ID);
    expect(outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeployGlobalContract", code: YIELD_ID, deployMode: "CodeHash" }]))).status).toEqual({
      SuccessValue: "",
    });
    for (let i = 0; i < 10 && chain.shardLayout.shardIds.some((s) => chain.at(chain.head()).shard(s).get(globalContractCodeKey({ kind: "CodeHash", codeHash })) === undefined); i++) {
      chain.produceBlock();
    }
    const zero = `z.${ALICE}`;
    const create = submit(chain, ALICE, zero, [
      { type: "CreateAccount" },
      { type: "UseGlobalContract", contractIdentifier: { kind: "CodeHash", codeHash } },
    ]);
    expect(outcomeOf(settle(chain, create)).status).toEqual({ SuccessValue: "" });
    expect(balanceOf(chain, zero)).toBe(0n);

    const o = outcomeOf(settle(chain, submit(chain, CAROL, zero, [call("give_one", ALICE)])));
    expect(o.status).toEqual({ SuccessValue: "" });
    const sent = o.receipts_outcome[0]!.outcome.receipt_ids.map((id) => chain.receipt(id)!).find((r) => r.receiver_id === ALICE)!;
    expect(sent.receipt).toMatchObject({ Action: { actions: [{ FunctionCall: { method_name: "noop", deposit: "1" } }] } });
    expect(o.receipts_outcome.find((r) => r.id === sent.receipt_id)!.outcome.status).toEqual({ SuccessValue: "" });
    // The chunk's balance_burnt leaves the minted yocto out: the supply still equals the balances.
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });
});
