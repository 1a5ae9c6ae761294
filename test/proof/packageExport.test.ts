import { describe, expect, it } from "vitest";

describe("package exports", () => {
  it("exposes the proof verifier as shardkit/proof (built by npm ci's prepare step)", async () => {
    const proof = await import("shardkit/proof");
    expect(typeof proof.verifyStateProof).toBe("function");
    expect(typeof proof.StateProofError).toBe("function");
  });
});
