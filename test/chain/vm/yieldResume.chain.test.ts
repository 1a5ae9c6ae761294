import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import type { Chain } from "../../../src/chain/node.js";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../../src/chain/runtime/parameters.js";
import { receiptIdFromReceipt } from "../../../src/chain/runtime/receiptId.js";
import { contractDataTrieKey } from "../../../src/chain/store/trieKeys.js";
import { ALICE, BOB, CAROL, openChain, outcomeOf, settle, submit, sumOfBalances } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { PROBE } from "./probeContract.js";
import { YIELDER } from "./yieldContract.js";

const b64 = (s: string): string => Buffer.from(s).toString("base64");
const E = NEARCORE_RUNTIME_PARAMETERS.wasm.extCosts;
const TIMEOUT = NEARCORE_RUNTIME_PARAMETERS.wasm.yieldTimeoutLengthInBlocks;

async function chainWithYielder(): Promise<Chain> {
  const chain = await openChain();
  deploy(chain, ALICE, YIELDER);
  return chain;
}

/** The data id `request` kept in ALICE's storage. */
function keptDataId(chain: Chain): Uint8Array {
  const raw = chain.at(chain.head()).shard(chain.shardOf(ALICE)).get(contractDataTrieKey(ALICE, new TextEncoder().encode("id")));
  if (raw === undefined) throw new Error("no data id kept");
  return Buffer.from(raw, "latin1");
}

/** Submits `request` and produces blocks until its yield is stored (the request's own receipt has run). */
function request(chain: Chain, args = "{}"): { hash: string; yieldId: string } {
  const hash = submit(chain, CAROL, ALICE, [call("request", args)]);
  const s = settle(chain, hash, "EXECUTED_OPTIMISTIC");
  const o = outcomeOf(s);
  expect(o.status).toBe("Started"); // waiting on the yield
  const [first] = o.receipts_outcome;
  const yieldId = first!.outcome.receipt_ids[0]!;
  expect(first!.outcome.status).toEqual({ SuccessReceiptId: yieldId });
  return { hash, yieldId };
}

describe("yield/resume end to end", () => {
  it("a request yields, a second transaction resumes it, the callback's value is the request's result", async () => {
    const chain = await chainWithYielder();
    const { hash, yieldId } = request(chain, '{"payload":"sign me"}');
    const dataId = keptDataId(chain);

    // The yielded receipt: an action receipt to ALICE from ALICE, flagged, its one input the kept id.
    const view = chain.receipt(yieldId)!;
    expect(view.predecessor_id).toBe(ALICE);
    expect(view.receiver_id).toBe(ALICE);
    expect(view.receipt).toEqual({
      Action: {
        signer_id: CAROL,
        signer_public_key: expect.any(String),
        gas_price: expect.any(String),
        // A transaction's receipt sends its result to no one: the yield inherits no receivers.
        output_data_receivers: [],
        input_data_ids: [base58Encode(dataId)],
        actions: [{ FunctionCall: { method_name: "on_resume", args: b64('{"payload":"sign me"}'), gas: 20_000_000_000_000, deposit: "0" } }],
        is_promise_yield: true,
      },
    });

    // Nothing happens while it waits: more blocks, still no outcome for the yield.
    for (let i = 0; i < 5; i++) chain.produceBlock();
    expect(chain.transactionStatus(hash)!.finalExecutionStatus).not.toBe("FINAL");
    expect(outcomeOf(chain.transactionStatus(hash)!).receipts_outcome.some((r) => r.id === yieldId)).toBe(false);

    // A responder (another signer) resumes it.
    const resp = outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("respond", "signature")])));
    expect(resp.status).toEqual({ SuccessValue: b64("1") });
    const respReceipt = resp.receipts_outcome[0]!;
    // The PromiseResume data receipt is not among the outcome's receipt ids (only the gas refund is).
    expect(respReceipt.outcome.receipt_ids.map((id) => chain.receipt(id)!.receiver_id)).toEqual([BOB]);
    const respHeight = chain.blockByHash(respReceipt.block_hash)!.height;
    const resumeId = base58Encode(receiptIdFromReceipt(base58Decode(respReceipt.id), respHeight, 0));
    expect(chain.receipt(resumeId)).toEqual({
      predecessor_id: ALICE,
      receiver_id: ALICE,
      receipt_id: resumeId,
      receipt: { Data: { data_id: base58Encode(dataId), data: b64("signature"), is_promise_resume: true } },
      priority: 0,
    });
    const gp = respReceipt.outcome.metadata.gas_profile!;
    expect(gp.find((e) => e.cost === "YIELD_RESUME_BASE")?.gas_used).toBe(E.yield_resume_base.toString());
    expect(gp.find((e) => e.cost === "YIELD_RESUME_BYTE")?.gas_used).toBe((9n * E.yield_resume_byte).toString());

    const done = outcomeOf(settle(chain, hash));
    expect(done.status).toEqual({ SuccessValue: b64("signature") });
    const cb = done.receipts_outcome.find((r) => r.id === yieldId)!;
    expect(cb.outcome.executor_id).toBe(ALICE);
    expect(cb.outcome.logs).toEqual(["resumed"]);
    expect(cb.outcome.status).toEqual({ SuccessValue: b64("signature") });
    // The callback ran the block after the resume.
    expect(chain.blockByHash(cb.block_hash)!.height).toBe(respHeight + 1);
    const create = done.receipts_outcome[0]!.outcome.metadata.gas_profile!;
    const bytes = BigInt("on_resume".length + '{"payload":"sign me"}'.length);
    expect(create.find((e) => e.cost === "YIELD_CREATE_BASE")?.gas_used).toBe(E.yield_create_base.toString());
    expect(create.find((e) => e.cost === "YIELD_CREATE_BYTE")?.gas_used).toBe((bytes * E.yield_create_byte).toString());

    // Resolved: resuming again answers 0 and changes nothing.
    expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("respond", "again")]))).status).toEqual({ SuccessValue: b64("0") });
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("a yield nobody resumes times out after yield_timeout_length_in_blocks: the callback sees Failed", async () => {
    const chain = await chainWithYielder();
    const { hash, yieldId } = request(chain);
    const yieldHeight = chain.blockByHash(outcomeOf(chain.transactionStatus(hash)!).receipts_outcome[0]!.block_hash)!.height;
    while (chain.head().height < yieldHeight + TIMEOUT) chain.produceBlock();
    // The timeout's resume receipt is made at yieldHeight + 200; the callback runs in the block after.
    expect(outcomeOf(chain.transactionStatus(hash)!).receipts_outcome.some((r) => r.id === yieldId)).toBe(false);
    const done = outcomeOf(settle(chain, hash));
    expect(done.status).toEqual({ SuccessValue: b64("timeout") });
    const cb = done.receipts_outcome.find((r) => r.id === yieldId)!;
    expect(cb.outcome.logs).toEqual(["timed out"]);
    expect(chain.blockByHash(cb.block_hash)!.height).toBe(yieldHeight + TIMEOUT + 1);
    const dataId = keptDataId(chain);
    const resumeId = base58Encode(receiptIdFromReceipt(dataId, yieldHeight + TIMEOUT, 0));
    expect(chain.receipt(resumeId)!.receipt).toEqual({ Data: { data_id: base58Encode(dataId), data: null, is_promise_resume: true } });
    // Too late to resume.
    expect(outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("respond", "late")]))).status).toEqual({ SuccessValue: b64("0") });
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("a resume just before the timeout wins over the timeout", async () => {
    const chain = await chainWithYielder();
    const { hash } = request(chain);
    const yieldHeight = chain.blockByHash(outcomeOf(chain.transactionStatus(hash)!).receipts_outcome[0]!.block_hash)!.height;
    while (chain.head().height < yieldHeight + TIMEOUT - 2) chain.produceBlock();
    const respond = submit(chain, BOB, ALICE, [call("respond", "just in time")]);
    expect(outcomeOf(settle(chain, respond)).status).toEqual({ SuccessValue: b64("1") });
    expect(outcomeOf(settle(chain, hash)).status).toEqual({ SuccessValue: b64("just in time") });
  });

  it("yield and resume in one call: resume answers 1 and the callback gets the data", async () => {
    const chain = await chainWithYielder();
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("request_and_respond", "{}")])));
    expect(o.status).toEqual({ SuccessValue: b64("1") });
    const cb = o.receipts_outcome.find((r) => r.outcome.logs[0] === "resumed")!;
    expect(cb.outcome.status).toEqual({ SuccessValue: b64("early") });
  });

  it("resume is bound to the account: another account's contract cannot resume ALICE's yield", async () => {
    const chain = await chainWithYielder();
    deploy(chain, BOB, YIELDER);
    const { hash } = request(chain);
    const dataId = keptDataId(chain);
    expect(outcomeOf(settle(chain, submit(chain, CAROL, BOB, [call("resume_id", dataId)]))).status).toEqual({ SuccessValue: b64("0") });
    for (let i = 0; i < 3; i++) chain.produceBlock();
    expect(chain.transactionStatus(hash)!.finalExecutionStatus).not.toBe("FINAL");
    expect(outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("resume_id", dataId)]))).status).toEqual({ SuccessValue: b64("1") });
    expect(outcomeOf(settle(chain, hash)).status).toEqual({ SuccessValue: b64("forged") });
  });

  it("a caller's callback gets the resumed payload through the yield's promise_return (the MPC signer's flow)", async () => {
    const chain = await openChain();
    deploy(chain, BOB, YIELDER); // the signer, shard 1
    deploy(chain, ALICE, PROBE); // the caller, shard 0: fork(BOB) calls BOB.leaf, then its own cb
    const hash = submit(chain, CAROL, ALICE, [call("fork", BOB)]);
    for (let i = 0; i < 4; i++) chain.produceBlock();
    expect(chain.transactionStatus(hash)!.finalExecutionStatus).not.toBe("FINAL");
    const idKey = contractDataTrieKey(BOB, new TextEncoder().encode("id"));
    expect(chain.at(chain.head()).shard(chain.shardOf(BOB)).get(idKey)).toBeDefined();
    expect(outcomeOf(settle(chain, submit(chain, BOB, BOB, [call("respond", "sig")]))).status).toEqual({ SuccessValue: b64("1") });
    const done = outcomeOf(settle(chain, hash));
    // cb logs each promise result and returns their count.
    expect(done.status).toEqual({ SuccessValue: b64("1") });
    expect(done.receipts_outcome.find((r) => r.outcome.executor_id === ALICE && r.outcome.logs.length > 0)!.outcome.logs).toEqual(["sig"]);
  });

  it("a yield pending when a data-dir chain closes is resumed after reopening, and its timeout stays queued", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shardkit-yield-"));
    try {
      const chain = await openChain({ dataDir: dir });
      deploy(chain, ALICE, YIELDER);
      const first = request(chain);
      const second = request(chain);
      const yieldHeight = chain.blockByHash(outcomeOf(chain.transactionStatus(second.hash)!).receipts_outcome[0]!.block_hash)!.height;
      expect(chain.receipt(first.yieldId)!.receipt).toMatchObject({ Action: { is_promise_yield: true } });
      await chain.close();

      const again = await openChain({ dataDir: dir });
      expect(again.receipt(first.yieldId)!.receipt).toMatchObject({ Action: { is_promise_yield: true } });
      // `respond` resumes the id kept last (the second request's); the first one times out.
      expect(outcomeOf(settle(again, submit(again, BOB, ALICE, [call("respond", "after restart")]))).status).toEqual({ SuccessValue: b64("1") });
      expect(outcomeOf(settle(again, second.hash)).status).toEqual({ SuccessValue: b64("after restart") });
      while (again.head().height < yieldHeight + TIMEOUT) again.produceBlock();
      expect(outcomeOf(settle(again, first.hash)).status).toEqual({ SuccessValue: b64("timeout") });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a malformed id fails the call; a view may not yield or resume", async () => {
    const chain = await chainWithYielder();
    const bad = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("resume_id", "short")]))).status;
    expect(bad).toEqual({
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: "yield resumption token is malformed" } } } },
    });
    const view = chain.at(chain.head());
    expect(view.callFunction(ALICE, "request", new Uint8Array())).toEqual({
      ok: false,
      error: { ExecutionError: "promise_yield_create is not allowed in view calls" },
      message: 'wasm execution failed with error: HostError(ProhibitedInView { method_name: "promise_yield_create" })',
      logs: [],
    });
    // nearcore names the resume "promise_submit_data" in this error.
    expect(view.callFunction(ALICE, "resume_id", new Uint8Array(32))).toMatchObject({
      ok: false,
      error: { ExecutionError: "promise_submit_data is not allowed in view calls" },
    });
  });
});
