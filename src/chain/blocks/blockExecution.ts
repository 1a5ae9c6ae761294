import type { ChunkResult } from "../runtime/applyChunk.js";
import { outcomeHash, type ExecutionOutcome } from "../runtime/executionOutcome.js";
import type { BlockExecution, ChunkExecution } from "./BlockProducer.js";

/** What the chunks of a block did, as its header commits to it (from the chunks' results). */
export function blockExecution(results: readonly ChunkResult[], prevTotalSupply: bigint): BlockExecution {
  let burnt = 0n;
  const chunks: ChunkExecution[] = results.map((r) => {
    burnt += r.balanceBurnt;
    return {
      txHashes: r.included.map((t) => t.stx.hash),
      outcomeHashes: [...r.included.map((t): ExecutionOutcome => t.outcome), ...r.receiptOutcomes].map(outcomeHash),
      outgoingReceiptIds: r.outgoing.map((x) => x.receiptId),
      gasUsed: r.gasUsed,
      balanceBurnt: r.balanceBurnt,
      validatorProposals: r.proposals.map((p) => ({
        account_id: p.accountId,
        public_key: p.publicKey,
        stake: p.stake.toString(),
        validator_stake_struct_version: "V1" as const,
      })),
    };
  });
  return { chunks, totalSupply: prevTotalSupply - burnt };
}
