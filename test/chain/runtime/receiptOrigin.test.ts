import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { call, deploy } from "../vm/deploy.js";
import { PROBE } from "../vm/probeContract.js";
import { ALICE, BOB, CAROL, openChain, outcomeOf, settle, submit } from "./helpers.js";

describe("receiptOrigin (EXPERIMENTAL_receipt_to_tx)", () => {
  it("leads a transfer's receipt and its gas refund to the transaction and its signer", async () => {
    const chain = await openChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 5n }]);
    const o = outcomeOf(settle(chain, hash));
    const ids = o.receipts_outcome.map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(1);
    for (const id of ids) expect(chain.receiptOrigin(id)).toEqual({ transactionHash: hash, senderId: ALICE });
    expect(chain.receiptOrigin(hash)).toBeUndefined(); // a transaction is not a receipt
    expect(chain.receiptOrigin("11111111111111111111111111111111")).toBeUndefined();
  });

  it("walks a cross-shard promise, its callback, the data receipt between them and the refunds up to the transaction", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, PROBE);
    deploy(chain, BOB, PROBE);
    const hash = submit(chain, CAROL, ALICE, [call("fork", BOB)]);
    const status = settle(chain, hash);
    const o = outcomeOf(status);
    // The fork, the leaf on BOB, the callback on ALICE, and refunds: every one with its executor.
    expect(new Set(o.receipts_outcome.map((r) => r.outcome.executor_id))).toEqual(new Set([ALICE, BOB, CAROL]));
    for (const r of o.receipts_outcome) expect(chain.receiptOrigin(r.id), r.id).toEqual({ transactionHash: hash, senderId: CAROL });
    // The data receipt carrying the leaf's result is listed by no outcome: find it in the chunks.
    const dataReceipts: string[] = [];
    for (let h = chain.genesisBlock.height + 1; h <= chain.head().height; h++) {
      for (const chunk of chain.blockByHeight(h)!.view.chunks) {
        for (const r of chain.chunkBodies.get(chunk.chunk_hash)?.receipts ?? []) if (r.body.type === "Data") dataReceipts.push(base58Encode(r.receiptId));
      }
    }
    expect(dataReceipts).toHaveLength(1);
    expect(chain.receiptOrigin(dataReceipts[0]!)).toEqual({ transactionHash: hash, senderId: CAROL });
  });

  it("forgets the receipts of blocks a rewind undid", async () => {
    const chain = await openChain();
    const before = chain.head().height;
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 5n }]);
    const [receipt] = outcomeOf(settle(chain, hash)).receipts_outcome;
    expect(chain.receiptOrigin(receipt!.id)).toEqual({ transactionHash: hash, senderId: ALICE });
    chain.producer.rewindTo(before);
    expect(chain.receiptOrigin(receipt!.id)).toBeUndefined();
  });
});
