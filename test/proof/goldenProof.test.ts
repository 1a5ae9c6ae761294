import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LightClientProofError, verifyOutcomeProof, type LightClientExecutionProofView } from "../../src/proof/index.js";

// A real nearcore light_client_proof (Rainbow Bridge test data): pins our outcome leaf hash,
// inner_lite borsh, block hash and path folding to nearcore's.
const vector = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures/rainbowBridgeProof.json"), "utf8")) as {
  block_merkle_root: string;
  proof: LightClientExecutionProofView;
};

describe("nearcore golden light_client_proof", () => {
  it("verifies against the published block_merkle_root", () => {
    const { blockHash } = verifyOutcomeProof({ proof: vector.proof, blockMerkleRoot: vector.block_merkle_root });
    expect(blockHash).toBe(vector.proof.outcome_proof.block_hash);
  });

  it("fails when the outcome, a proof item or the header is altered", () => {
    const tampered = (f: (p: any) => void) => {
      const p = structuredClone(vector.proof) as any;
      f(p);
      return () => verifyOutcomeProof({ proof: p, blockMerkleRoot: vector.block_merkle_root });
    };
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        return (e as LightClientProofError).code;
      }
      return "verified";
    };
    expect(code(tampered((p) => (p.outcome_proof.outcome.tokens_burnt = "18165501485840001")))).toBe("OUTCOME_ROOT_MISMATCH");
    expect(code(tampered((p) => p.outcome_proof.outcome.logs.push("x")))).toBe("OUTCOME_ROOT_MISMATCH");
    expect(code(tampered((p) => (p.block_proof[3].direction = "Right")))).toBe("BLOCK_MERKLE_ROOT_MISMATCH");
    expect(code(tampered((p) => (p.block_header_lite.inner_lite.height = 479)))).toBe("BLOCK_MERKLE_ROOT_MISMATCH");
    expect(code(tampered((p) => (p.block_proof[0].hash = "not base58!")))).toBe("INVALID_INPUT");
  });
});
