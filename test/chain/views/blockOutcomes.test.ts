// Chain.blockOutcomes (what the history index reads) against what `tx` shows: every outcome of
// busy chunks, with its merkle proof, equal to the transaction status's view of it.

import { describe, expect, it } from "vitest";
import type { ExecutionOutcomeWithIdView } from "../../../src/chain/runtime/executionOutcome.js";
import { ALICE, BOB, CAROL, ROOT, openChain, settle, submit } from "../runtime/helpers.js";

describe("Chain.blockOutcomes", () => {
  it("gives every outcome of a block's chunks with the proof transactionStatus gives it", async () => {
    const chain = await openChain();
    const hashes: string[] = [];
    // Odd and even counts per shard, local receipts (to oneself) and failures with refunds.
    for (const [signer, count] of [[ALICE, 7], [BOB, 4], [CAROL, 5], [ROOT, 1]] as const) {
      for (let i = 0; i < count; i++) {
        const receiver = [BOB, signer, CAROL, "nobody.test.near"][i % 4]!;
        hashes.push(submit(chain, signer, receiver, [{ type: "Transfer", deposit: BigInt(i + 1) }]));
      }
    }
    for (const hash of hashes) settle(chain, hash);

    const shown = new Map<string, ExecutionOutcomeWithIdView>();
    for (const hash of hashes) {
      const outcome = chain.transactionStatus(hash)?.outcome;
      if (outcome === undefined) throw new Error(`${hash} has no outcome`);
      for (const view of [outcome.transaction_outcome, ...outcome.receipts_outcome]) shown.set(view.id, view);
    }
    const given = new Map<string, ExecutionOutcomeWithIdView>();
    let longestProof = 0;
    for (let height = chain.genesisBlock.height + 1; height <= chain.head().height; height++) {
      const block = chain.blockByHeight(height);
      if (block === undefined) throw new Error(`no block ${height}`);
      const chunks = chain.blockOutcomes(block);
      expect(chunks.map((c) => c.shardId)).toEqual(block.view.chunks.map((c) => c.shard_id));
      for (const chunk of chunks) {
        for (const { hash, view } of chunk.transactions) {
          expect(view.id).toBe(hash);
          given.set(hash, view);
        }
        for (const { view } of chunk.receipts) given.set(view.id, view);
        for (const view of [...chunk.transactions, ...chunk.receipts].map((o) => o.view)) longestProof = Math.max(longestProof, view.proof.length);
      }
    }
    expect(given).toEqual(shown);
    expect(longestProof).toBeGreaterThanOrEqual(3);
    expect(chain.blockOutcomes(chain.genesisBlock)).toEqual([]);
  });
});
