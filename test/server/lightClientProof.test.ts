import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base58Decode } from "@shardkit/primitives/base58";
import {
  LightClientProofError,
  computeRootFromPath,
  outcomeLeafHash,
  verifyBlockProof,
  verifyOutcomeProof,
  type LightClientExecutionProofView,
} from "../../src/proof/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

// Proofs over real HTTP on the dev chain (4 shards): transactions, local and cross-shard
// receipts, several outcomes per chunk (non-empty outcome paths), then tampering and errors.

let service: Service;
const txHashes: { hash: string; signer: string }[] = [];
let headHash: string;
let headMerkleRoot: string;

beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0 } });
  const chain = service.chain;
  // The test places transactions in blocks itself: no on-demand blocks after a submission.
  chain.stop();
  chain.produceBlock();
  // Three transfers from alice in one chunk (alice → bob and alice → carol cross shards,
  // alice → alice stays local), and one from bob.
  for (const [signer, receiver] of [
    [ALICE, BOB],
    [ALICE, CAROL],
    [ALICE, ALICE],
    [BOB, ALICE],
  ] as const) {
    const bytes = signedTx(chain, signer, receiver, [{ type: "Transfer", deposit: 10n ** 21n }]);
    const { hash } = await rpcResult(service.rpcUrl, "broadcast_tx_async", [Buffer.from(bytes).toString("base64")]).then((h: string) => ({ hash: h }));
    txHashes.push({ hash, signer });
  }
  // Transactions, receipts, gas refunds (NEP-642's price surplus), the block after the last
  // outcomes (it carries their outcome root), then a final head above it.
  for (let i = 0; i < 7; i++) chain.produceBlock();
  const head = await rpcResult(service.rpcUrl, "block", { finality: "final" });
  headHash = head.header.hash;
  headMerkleRoot = head.header.block_merkle_root;
});
afterAll(() => service.close());

async function txStatus(hash: string, signer: string) {
  return rpcResult(service.rpcUrl, "EXPERIMENTAL_tx_status", { tx_hash: hash, sender_account_id: signer, wait_until: "FINAL" });
}

/** Every outcome of the transactions: [id, executor, the tx-status outcome view]. */
async function allOutcomes(): Promise<{ id: string; account: string; type: "transaction" | "receipt"; view: any }[]> {
  const out = [];
  for (const { hash, signer } of txHashes) {
    const s = await txStatus(hash, signer);
    out.push({ id: hash, account: signer, type: "transaction" as const, view: s.transaction_outcome });
    for (const r of s.receipts_outcome) out.push({ id: r.id, account: r.outcome.executor_id, type: "receipt" as const, view: r });
  }
  return out;
}

const proofParams = (o: { id: string; account: string; type: "transaction" | "receipt" }, head = headHash) =>
  o.type === "transaction"
    ? { type: "transaction", transaction_hash: o.id, sender_id: o.account, light_client_head: head }
    : { type: "receipt", receipt_id: o.id, receiver_id: o.account, light_client_head: head };

describe("outcome proofs in tx results", () => {
  it("every outcome's proof folds to the outcome_root its chunk carries in the next block, and some paths are non-empty", async () => {
    const outcomes = await allOutcomes();
    expect(outcomes.length).toBeGreaterThanOrEqual(8);
    let nonEmpty = 0;
    for (const o of outcomes) {
      const executed = await rpcResult(service.rpcUrl, "block", { block_id: o.view.block_hash });
      const next = await rpcResult(service.rpcUrl, "block", { block_id: executed.header.height + 1 });
      const shard = service.chain.shardOf(o.view.outcome.executor_id);
      const chunk = next.chunks.find((c: any) => c.shard_id === shard);
      const root = computeRootFromPath(o.view.proof, outcomeLeafHash(o.view));
      expect(Buffer.from(root)).toEqual(Buffer.from(base58Decode(chunk.outcome_root)));
      if (o.view.proof.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(3); // alice's chunk holds three transaction outcomes
  });
});

describe("light_client_proof", () => {
  it("verifies for every transaction and receipt (local and cross-shard) against the head's block_merkle_root", async () => {
    const outcomes = await allOutcomes();
    const crossShard = outcomes.filter((o) => o.type === "receipt" && service.chain.shardOf(o.account) !== service.chain.shardOf(ALICE));
    expect(crossShard.length).toBeGreaterThan(0);
    for (const o of outcomes) {
      const proof: LightClientExecutionProofView = await rpcResult(service.rpcUrl, "light_client_proof", proofParams(o));
      expect(proof.outcome_proof.id).toBe(o.id);
      expect(proof.outcome_proof.outcome).toEqual(o.view.outcome);
      expect(proof.outcome_proof.proof).toEqual(o.view.proof);
      const executed = service.chain.blockByHash(o.view.block_hash)!;
      expect(proof.outcome_proof.block_hash).toBe(service.chain.blockByHeight(executed.height + 1)!.hash);
      const { blockHash } = verifyOutcomeProof({ proof, blockMerkleRoot: headMerkleRoot });
      expect(blockHash).toBe(proof.outcome_proof.block_hash);
      const experimental = await rpcResult(service.rpcUrl, "EXPERIMENTAL_light_client_proof", proofParams(o));
      expect(experimental).toEqual(proof);
    }
  });

  it("fails verification for a tampered outcome, proof item or header, and against another head", async () => {
    const [first] = await allOutcomes();
    const proof: LightClientExecutionProofView = await rpcResult(service.rpcUrl, "light_client_proof", proofParams(first!));
    const codeOf = (mutate: (p: any) => void, root = headMerkleRoot) => {
      const p = structuredClone(proof) as any;
      mutate(p);
      try {
        verifyOutcomeProof({ proof: p, blockMerkleRoot: root });
        return "verified";
      } catch (e) {
        expect(e).toBeInstanceOf(LightClientProofError);
        return (e as LightClientProofError).code;
      }
    };
    expect(codeOf(() => {})).toBe("verified");
    expect(codeOf((p) => (p.outcome_proof.outcome.gas_burnt += 1))).toBe("OUTCOME_ROOT_MISMATCH");
    expect(codeOf((p) => (p.outcome_proof.outcome.status = { SuccessValue: "AA==" }))).toBe("OUTCOME_ROOT_MISMATCH");
    expect(codeOf((p) => (p.outcome_proof.id = p.block_header_lite.prev_block_hash))).toBe("OUTCOME_ROOT_MISMATCH");
    expect(codeOf((p) => (p.outcome_root_proof[0].direction = p.outcome_root_proof[0].direction === "Left" ? "Right" : "Left"))).toBe("OUTCOME_ROOT_MISMATCH");
    expect(codeOf((p) => (p.outcome_root_proof[0].hash = p.block_header_lite.prev_block_hash))).toBe("OUTCOME_ROOT_MISMATCH");
    expect(codeOf((p) => (p.block_proof[0].hash = p.block_header_lite.inner_rest_hash))).toBe("BLOCK_MERKLE_ROOT_MISMATCH");
    expect(codeOf((p) => (p.block_header_lite.inner_rest_hash = p.block_header_lite.prev_block_hash))).toBe("BLOCK_MERKLE_ROOT_MISMATCH");
    expect(codeOf((p) => (p.block_header_lite.inner_lite.timestamp_nanosec = "1"))).toBe("BLOCK_MERKLE_ROOT_MISMATCH");
    expect(codeOf((p) => p.block_proof.pop())).toBe("BLOCK_MERKLE_ROOT_MISMATCH");
    expect(codeOf(() => {}, proof.block_header_lite.inner_lite.block_merkle_root)).toBe("BLOCK_MERKLE_ROOT_MISMATCH");
    expect(codeOf((p) => (p.block_proof[0].hash = "0OIl"))).toBe("INVALID_INPUT");
  });

  it("answers nearcore's errors: unknown id, unknown head, outcome in the head block, non-final head", async () => {
    const unknownId = "4o7xrjNBbXnMmC4FvMjkU9CKUmW46BNYmzgpoDvV8GrZ";
    const unknown = await rpcError(service.rpcUrl, "light_client_proof", { type: "transaction", transaction_hash: unknownId, sender_id: ALICE, light_client_head: headHash });
    expect(unknown.error.cause).toEqual({ name: "UNKNOWN_TRANSACTION_OR_RECEIPT", info: { transaction_or_receipt_id: unknownId } });
    expect(unknown.error.data).toBe(`${unknownId} does not exist`);

    const [first] = await allOutcomes();
    const badHead = await rpcError(service.rpcUrl, "light_client_proof", { ...proofParams(first!), light_client_head: unknownId });
    expect(badHead.status).toBe(200);
    expect(badHead.error.cause).toEqual({ name: "UNKNOWN_BLOCK", info: {} });
    expect(badHead.error.data).toBe(`DB Not Found Error: BLOCK HEADER: ${unknownId}`);

    const bytes = signedTx(service.chain, CAROL, CAROL, [{ type: "Transfer", deposit: 1n }]);
    const fresh: string = await rpcResult(service.rpcUrl, "broadcast_tx_async", [Buffer.from(bytes).toString("base64")]);
    service.chain.produceBlock(); // the transaction runs in the head block: no block carries its outcome root yet
    const notYet = await rpcError(service.rpcUrl, "light_client_proof", { type: "transaction", transaction_hash: fresh, sender_id: CAROL, light_client_head: headHash });
    expect(notYet.error.cause).toEqual({ name: "NOT_CONFIRMED", info: { transaction_or_receipt_id: fresh } });
    expect(notYet.error.data).toBe(`${fresh} has not been confirmed`);

    const optimistic = service.chain.head().hash;
    const notFinal = await rpcError(service.rpcUrl, "light_client_proof", { ...proofParams(first!), light_client_head: optimistic });
    expect(notFinal.status).toBe(500);
    expect(notFinal.error.cause.name).toBe("INTERNAL_ERROR");
    expect(notFinal.error.data).toBe(`Other Error: ${optimistic} not on current chain`);
  });
});

describe("EXPERIMENTAL_light_client_block_proof", () => {
  it("proves every earlier block into the head; the head itself gets an empty path; a later block is refused", async () => {
    const head = service.chain.blockByHash(headHash)!;
    for (let h = service.chain.genesisBlock.height; h < head.height; h++) {
      const block = service.chain.blockByHeight(h)!;
      const res = await rpcResult(service.rpcUrl, "EXPERIMENTAL_light_client_block_proof", { block_hash: block.hash, light_client_head: headHash });
      expect(verifyBlockProof({ blockHeaderLite: res.block_header_lite, blockProof: res.block_proof, blockMerkleRoot: headMerkleRoot }).blockHash).toBe(block.hash);
    }
    const self = await rpcResult(service.rpcUrl, "EXPERIMENTAL_light_client_block_proof", { block_hash: headHash, light_client_head: headHash });
    expect(self.block_proof).toEqual([]);
    const earlier = service.chain.blockByHeight(head.height - 1)!.hash;
    const ahead = await rpcError(service.rpcUrl, "EXPERIMENTAL_light_client_block_proof", { block_hash: headHash, light_client_head: earlier });
    expect(ahead.error.cause.name).toBe("INTERNAL_ERROR");
    expect(ahead.error.data).toBe(`Other Error: block ${headHash} is ahead of head block ${earlier}`);
    const unknown = await rpcError(service.rpcUrl, "EXPERIMENTAL_light_client_block_proof", { block_hash: "11111111111111111111111111111111", light_client_head: headHash });
    expect(unknown.error.cause).toEqual({ name: "UNKNOWN_BLOCK", info: {} });
  });
});
