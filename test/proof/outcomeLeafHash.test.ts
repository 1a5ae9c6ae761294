import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { outcomeHash, toExecutionOutcomeView, type ExecutionOutcome, type ExecutionStatus } from "../../src/chain/runtime/executionOutcome.js";
import { outcomeLeafHash } from "../../src/proof/index.js";

// The chain hashes outcomes from its records, light clients from the JSON view: both must be
// nearcore's leaf (the golden light_client_proof in goldenProof.test.ts pins the view side).
const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
const status: fc.Arbitrary<ExecutionStatus> = fc.oneof(
  fc.uint8Array({ maxLength: 64 }).map((value) => ({ kind: "SuccessValue" as const, value })),
  hash32.map((receiptId) => ({ kind: "SuccessReceiptId" as const, receiptId })),
  fc.constant({ kind: "Failure" as const, error: { ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: "x.near" } } } } as never }),
);
const outcome: fc.Arbitrary<ExecutionOutcome> = fc.record({
  id: hash32,
  logs: fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { maxLength: 4 }),
  receiptIds: fc.array(hash32, { maxLength: 3 }),
  gasBurnt: fc.bigInt({ min: 0n, max: 300_000_000_000_000n }),
  tokensBurnt: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
  executorId: fc.constantFrom("alice.near", "ft.test.near", "system", "a-very-long-account-name.with.parts.near"),
  status,
  metadataVersion: fc.constantFrom(1 as const, 3 as const),
});

describe("outcome leaf hash", () => {
  it("the chain's outcomeHash equals the verifier's hash of the outcome's JSON view (property)", () => {
    fc.assert(
      fc.property(outcome, (o) => {
        const view = { proof: [], block_hash: base58Encode(o.id), id: base58Encode(o.id), outcome: toExecutionOutcomeView(o) };
        expect(Buffer.from(outcomeHash(o))).toEqual(Buffer.from(outcomeLeafHash(view)));
      }),
      { numRuns: 300 },
    );
  });

  it("a failure hashes without its error, as nearcore's PartialExecutionStatus::Failure", () => {
    const base = { id: new Uint8Array(32), logs: [], receiptIds: [], gasBurnt: 1n, tokensBurnt: 2n, executorId: "a.near", metadataVersion: 3 as const };
    const a = outcomeHash({ ...base, status: { kind: "Failure", error: { ActionError: { index: 0, kind: "A" } } as never } });
    const b = outcomeHash({ ...base, status: { kind: "Failure", error: { ActionError: { index: 1, kind: "B" } } as never } });
    expect(Buffer.from(a)).toEqual(Buffer.from(b));
  });
});
