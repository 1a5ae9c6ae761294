import { describe, expect, it } from "vitest";

// The published entry points resolve through package.json "exports" to dist/ (built by
// npm ci's prepare step), as a consumer's import would.
describe("package exports", () => {
  it("exposes the proof verifier as shardkit/proof", async () => {
    const proof = await import("shardkit/proof");
    expect(typeof proof.verifyStateProof).toBe("function");
    expect(typeof proof.StateProofError).toBe("function");
    expect(typeof proof.LightClient).toBe("function");
    expect(typeof proof.verifyOutcomeProof).toBe("function");
  });

  it("exposes the typed client as shardkit/client", async () => {
    const client = await import("shardkit/client");
    expect(Object.keys(client).sort()).toEqual(["RpcHttpError", "RpcResponseError", "createRpcClient", "httpTransport"]);
  });
});
