import { describe, expect, it } from "vitest";
import { DELAYED_RECEIPT_INDICES_KEY } from "../../../src/chain/runtime/runtimeTrieKeys.js";
import { NEAR, ROOT, TRANSFER_GAS, keyOf, openChain, outcomeOf, settle, submit } from "./helpers.js";

describe("delayed receipts", () => {
  it("queue FIFO in the receiver shard's state when a chunk reaches its gas limit", async () => {
    // Four senders on shard 0 (a.alice…d.alice are all < "b"), funded first.
    const chain = await openChain({ gasLimit: Number(TRANSFER_GAS) * 2 }); // two receipts fit per chunk
    const senders = ["a", "ab", "ac", "ad"].map((p) => `${p}.alice.test.near`);
    for (const id of senders) {
      settle(chain, submit(chain, "alice.test.near", id, [
        { type: "CreateAccount" },
        { type: "Transfer", deposit: 10n * NEAR },
        { type: "AddKey", publicKey: keyOf(id).publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } },
      ]));
    }
    const shard = chain.shardOf(ROOT);
    const hashes = senders.flatMap((id) => [1n, 2n].map((deposit) => submit(chain, id, ROOT, [{ type: "Transfer", deposit }], { key: keyOf(id) })));
    const txBlock = chain.produceBlock().height;
    const queued: number[] = [];
    for (let i = 0; i < 6; i++) queued.push(chain.at(chain.produceBlock()).delayedReceiptCount(shard));
    // 8 receipts arrive at h+1: 2 run, 6 wait; then 2 per block.
    expect(queued).toEqual([6, 4, 2, 0, 0, 0]);
    const heights = hashes.map((h) => chain.blockByHash(outcomeOf(chain.transactionStatus(h)!).receipts_outcome[0]!.block_hash)!.height - txBlock);
    // Arrival order is the transaction order in the chunk (one per key per round):
    // a1 ab1 ac1 ad1 a2 ab2 ac2 ad2 → executed two per block in that order.
    const order = [0, 2, 4, 6, 1, 3, 5, 7].map((i) => heights[i]);
    expect(order).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
    expect(chain.at(chain.head()).shard(shard).get(DELAYED_RECEIPT_INDICES_KEY)).toBeDefined();
    const receiptChunk = chain.blockByHeight(txBlock + 1)!.view.chunks.find((c) => c.shard_id === shard)!;
    expect(receiptChunk.gas_used).toBe(Number(TRANSFER_GAS) * 2);
  });

  it("also delays a local receipt once the transactions alone fill the chunk", async () => {
    const chain = await openChain({ gasLimit: 1 });
    const hash = submit(chain, ROOT, ROOT, [{ type: "Transfer", deposit: 1n }]);
    const h = chain.produceBlock().height;
    expect(chain.transactionStatus(hash)!.outcome!.receipts_outcome).toEqual([]);
    expect(chain.at(chain.head()).delayedReceiptCount(chain.shardOf(ROOT))).toBe(1);
    chain.produceBlock();
    const o = outcomeOf(chain.transactionStatus(hash)!);
    expect(chain.blockByHash(o.receipts_outcome[0]!.block_hash)!.height).toBe(h + 1);
    expect(chain.at(chain.head()).delayedReceiptCount(chain.shardOf(ROOT))).toBe(0);
  });
});
