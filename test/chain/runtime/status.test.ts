import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, NEAR, ROOT, openChain, signedTx, submit } from "./helpers.js";

describe("transaction status", () => {
  it("is undefined for a transaction never seen, NONE while pooled", async () => {
    const chain = await openChain();
    expect(chain.transactionStatus("11111111111111111111111111111111")).toBeUndefined();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    expect(chain.transactionStatus(hash)).toEqual({ signerId: ALICE, finalExecutionStatus: "NONE" });
  });

  it("goes INCLUDED → EXECUTED_OPTIMISTIC → EXECUTED → FINAL for a cross-shard transfer", async () => {
    const chain = await openChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      chain.produceBlock();
      const s = chain.transactionStatus(hash)!;
      seen.push(s.finalExecutionStatus);
      if (i === 0) {
        expect(s.outcome!.status).toBe("Started");
        expect(s.outcome!.receipts_outcome).toEqual([]);
        expect(s.receipts).toEqual([]);
      }
    }
    // Block h: included; h+1: the receipt runs (its gas refund, NEP-642's price surplus, is
    // ignored by EXECUTED_OPTIMISTIC); h+2: tx block final, refund runs; h+4: refund's block final.
    expect(seen).toEqual(["INCLUDED", "EXECUTED_OPTIMISTIC", "EXECUTED", "EXECUTED", "FINAL"]);
  });

  it("is INCLUDED_FINAL when the transaction's block is final but its receipt still waits", async () => {
    const chain = await openChain({ gasLimit: 1 }); // one receipt per chunk
    const hashes = [ALICE, BOB, CAROL].map((signer) => submit(chain, signer, ROOT, [{ type: "Transfer", deposit: NEAR }]));
    const last = hashes[2]!;
    const seen: string[] = [];
    for (let i = 0; i < 7; i++) {
      chain.produceBlock();
      seen.push(chain.transactionStatus(last)!.finalExecutionStatus);
    }
    // Block h: included; h+1: first receipt runs, carol's waits; h+2: tx block final, still
    // waiting; h+3: executed; h+4: its gas refund runs; h+6: the refund's block is final.
    expect(seen).toEqual(["INCLUDED", "INCLUDED", "INCLUDED_FINAL", "EXECUTED", "EXECUTED", "EXECUTED", "FINAL"]);
  });

  it("counts the refund (last receipt id) for FINAL but not for EXECUTED_OPTIMISTIC", async () => {
    const chain = await openChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "FunctionCall", methodName: "m", args: new Uint8Array(0), gas: 10n ** 13n, deposit: 0n }]);
    chain.produceBlock(); // tx
    chain.produceBlock(); // receipt fails on bob, refund sent to alice
    let s = chain.transactionStatus(hash)!;
    expect(s.finalExecutionStatus).toBe("EXECUTED_OPTIMISTIC");
    expect(s.outcome!.receipts_outcome).toHaveLength(1);
    expect(s.outcome!.receipts_outcome[0]!.outcome.receipt_ids).toHaveLength(1);
    chain.produceBlock(); // refund executes; the tx block is final
    s = chain.transactionStatus(hash)!;
    expect(s.outcome!.receipts_outcome).toHaveLength(2);
    expect(s.finalExecutionStatus).toBe("EXECUTED");
    chain.produceBlock();
    expect(chain.transactionStatus(hash)!.finalExecutionStatus).toBe("EXECUTED");
    chain.produceBlock();
    expect(chain.transactionStatus(hash)!.finalExecutionStatus).toBe("FINAL");
  });

  it("accepts a resubmitted transaction as known, without validating or pooling it again", async () => {
    const chain = await openChain();
    const bytes = signedTx(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const first = chain.submitTransaction(bytes);
    expect(first.known).toBe(false);
    expect(chain.submitTransaction(bytes)).toEqual({ hash: first.hash, known: true });
    for (let i = 0; i < 5; i++) chain.produceBlock();
    // Included and executed: the nonce is spent, yet the same bytes are still "known".
    expect(chain.submitTransaction(bytes)).toEqual({ hash: first.hash, known: true });
    const s = chain.transactionStatus(first.hash)!;
    expect(s.finalExecutionStatus).toBe("FINAL");
    expect(s.outcome!.receipts_outcome).toHaveLength(2); // the transfer and its gas refund
    expect(chain.at(chain.head()).account(BOB)!.amount).toBe(10_001n * NEAR);
  });

  it("forgets a transaction dropped at inclusion and says why", async () => {
    const chain = await openChain();
    const balance = chain.at(chain.head()).account(ALICE)!.amount;
    const a = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: balance / 2n }]);
    const b = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: balance / 2n }]); // valid alone, not after `a`
    chain.produceBlock();
    expect(chain.transactionStatus(a)!.finalExecutionStatus).toBe("INCLUDED");
    expect(chain.transactionStatus(b)).toBeUndefined();
    expect(chain.droppedTransaction(b)).toMatchObject({ NotEnoughBalance: { signer_id: ALICE } });
  });

  it("with a zero validity period still includes transactions that name the head", async () => {
    // At inclusion the check runs against the previous block, which is the head the
    // transaction was submitted at (every block takes the whole pool).
    const chain = await openChain({ transactionValidityPeriod: 0 });
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    chain.produceBlock();
    expect(chain.transactionStatus(hash)!.finalExecutionStatus).toBe("INCLUDED");
    expect(chain.droppedTransaction(hash)).toBeUndefined();
  });

  it("lets the RPC wait for blocks through onBlock", async () => {
    const chain = await openChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    const statuses: string[] = [];
    const off = chain.onBlock(() => statuses.push(chain.transactionStatus(hash)!.finalExecutionStatus));
    for (let i = 0; i < 5; i++) chain.produceBlock();
    off();
    expect(statuses).toEqual(["INCLUDED", "EXECUTED_OPTIMISTIC", "EXECUTED", "EXECUTED", "FINAL"]);
  });
});
