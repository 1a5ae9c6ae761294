import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import type { FunctionCallExecutor } from "../../../src/chain/node.js";
import { execFee } from "../../../src/chain/runtime/actionFees.js";
import { NEARCORE_RUNTIME_PARAMETERS as P, sendFee } from "../../../src/chain/runtime/parameters.js";
import type { NewReceipt } from "../../../src/chain/runtime/receipt.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, CAROL, openChain, outcomeOf, settle, submit, sumOfBalances } from "./helpers.js";

const utf8 = (s: string) => new TextEncoder().encode(s);
const call = (methodName: string, gas: bigint): Extract<Action, { type: "FunctionCall" }> => ({ type: "FunctionCall", methodName, args: new Uint8Array(0), gas, deposit: 0n });

/**
 * A scripted "contract": `fork` on X calls `leaf` on carol and then `join` on X with leaf's
 * result as input data, returning join's result (like `promise_then` + `promise_return`).
 * Gas is accounted as a VM would: send fees of the new receipts burnt, their execution fees
 * and attached gas used.
 */
const scripted: FunctionCallExecutor = (input) => {
  const { action, receipt, accountId, account } = input;
  const body = receipt.body;
  if (action.methodName === "fork") {
    const dataId = sha256(new Uint8Array([...receipt.receiptId, 1]));
    const child = (receiverId: string, a: Action, extra: Partial<NewReceipt["body"]>): NewReceipt => ({
      predecessorId: accountId,
      receiverId,
      body: {
        type: "Action",
        signerId: body.signerId,
        signerPublicKey: body.signerPublicKey,
        gasPrice: body.gasPrice,
        outputDataReceivers: [],
        inputDataIds: [],
        actions: [a],
        ...extra,
      } as NewReceipt["body"],
    });
    const leaf = call("leaf", 5n * 10n ** 12n);
    const join = call("join", 5n * 10n ** 12n);
    const calls = [
      { receiver: CAROL, a: leaf, extra: { outputDataReceivers: [{ dataId, receiverId: accountId }] } },
      { receiver: accountId, a: join, extra: { inputDataIds: [dataId] } },
    ];
    const receipts = calls.map((c) => child(c.receiver, c.a, c.extra));
    let burnt = 0n;
    let used = 0n;
    for (const { receiver, a } of calls) {
      const sir = receiver === accountId;
      burnt += sendFee(P.fees.actionReceiptCreation, sir) + sendFee(P.fees.functionCallBase, sir) + sendFee(P.fees.functionCallPerByte, sir) * BigInt(a.methodName.length);
      used += P.fees.actionReceiptCreation.execution + execFee(P, a, receiver) + a.gas;
    }
    return { ok: true, returnData: { kind: "ReceiptIndex", index: 1 }, balance: account.amount + action.deposit, storageUsage: account.storageUsage, gasBurnt: burnt, gasUsed: burnt + used, logs: ["forked"], newReceipts: receipts };
  }
  if (action.methodName === "leaf") {
    return { ok: true, returnData: { kind: "Value", value: utf8("42") }, balance: account.amount, storageUsage: account.storageUsage, gasBurnt: 0n, gasUsed: 0n, logs: [], newReceipts: [] };
  }
  const got = input.promiseResults.map((r) => (r === null ? "failed" : new TextDecoder().decode(r)));
  return { ok: true, returnData: { kind: "Value", value: utf8(`joined:${got.join(",")}`) }, balance: account.amount, storageUsage: account.storageUsage, gasBurnt: 0n, gasUsed: 0n, logs: [`results ${got.join(",")}`], newReceipts: [] };
};

describe("data receipts and input data dependencies", () => {
  it("postpone an action receipt until its input data arrives, then run it with the data", async () => {
    const chain = await openChain({ functionCalls: scripted });
    const start = chain.head().height;
    const hash = submit(chain, ALICE, BOB, [call("fork", 50n * 10n ** 12n)]);
    chain.produceBlock(); // h: tx
    chain.produceBlock(); // h+1: fork on bob → leaf (carol), join (bob)
    chain.produceBlock(); // h+2: leaf runs and sends data; join arrives and is postponed
    const bobShard = chain.shardOf(BOB);
    const postponed: string[] = [];
    chain.at(chain.head()).shard(bobShard).scan("\x06", undefined, (k) => {
      postponed.push(k);
    });
    expect(postponed).toHaveLength(1);
    expect(chain.transactionStatus(hash)!.outcome!.status).toBe("Started");

    const s = settle(chain, hash);
    const o = outcomeOf(s);
    expect(o.status).toEqual({ SuccessValue: Buffer.from("joined:42").toString("base64") });
    const byExecutor = (id: string) => o.receipts_outcome.filter((r) => r.outcome.executor_id === id);
    const fork = o.receipts_outcome[0]!;
    expect(fork.outcome.logs).toEqual(["forked"]);
    const [leafId, joinId] = fork.outcome.receipt_ids;
    expect(fork.outcome.status).toEqual({ SuccessReceiptId: joinId });
    const leaf = o.receipts_outcome.find((r) => r.id === leafId)!;
    const join = o.receipts_outcome.find((r) => r.id === joinId)!;
    expect(leaf.outcome.status).toEqual({ SuccessValue: Buffer.from("42").toString("base64") });
    expect(join.outcome.logs).toEqual(["results 42"]);
    expect(chain.blockByHash(leaf.block_hash)!.height).toBe(start + 3);
    expect(chain.blockByHash(join.block_hash)!.height).toBe(start + 4); // the data arrived a block later
    expect(byExecutor(BOB).length).toBeGreaterThanOrEqual(2);

    // The wiring as ReceiptViews: leaf sends to bob's data id, join waits for it.
    const leafView = chain.receipt(leafId!)!.receipt as { Action: { output_data_receivers: { data_id: string; receiver_id: string }[] } };
    const joinView = chain.receipt(joinId!)!.receipt as { Action: { input_data_ids: string[] } };
    expect(leafView.Action.output_data_receivers).toEqual([{ data_id: joinView.Action.input_data_ids[0], receiver_id: BOB }]);
    // Postponed records and received data are gone once the receipt ran.
    for (const col of ["\x03", "\x04", "\x05", "\x06"]) {
      chain.at(chain.head()).shard(bobShard).scan(col, undefined, () => {
        throw new Error(`state left under column ${col.charCodeAt(0)}`);
      });
    }
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });
});
