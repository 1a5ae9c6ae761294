import { describe, expect, it } from "vitest";
import { validateParams } from "../../generated/rpc/validators.js";
import { curlLine } from "../../src/contract-test/curlLine.js";
import { formatJunit, formatResultLines } from "../../src/contract-test/formatReport.js";
import { invalidParamsFor } from "../../src/contract-test/invalidParams.js";
import type { CheckResult } from "../../src/contract-test/checkResult.js";
import { parseSignerFlag, signerKeyPair } from "../../src/contract-test/signerKey.js";
import { ed25519FromSeed } from "../../src/chain/primitives/ed25519.js";

const result = (overrides: Partial<CheckResult>): CheckResult => ({
  group: "conformance",
  name: "rpc block block_final",
  outcome: "pass",
  message: undefined,
  curl: undefined,
  shardkitOnly: false,
  durationMs: 12,
  ...overrides,
});

describe("curlLine", () => {
  it("quotes the body for a POSIX shell, single quotes included", () => {
    const line = curlLine({
      method: "POST",
      url: "http://127.0.0.1:3030",
      headers: { "content-type": "application/json" },
      body: `{"method":"query","params":{"account_id":"it's"}}`,
    });
    expect(line).toBe(
      `curl -sS -i -X POST -H 'content-type: application/json' --data-raw '{"method":"query","params":{"account_id":"it'\\''s"}}' 'http://127.0.0.1:3030'`,
    );
  });

  it("never prints an API key, in the header or the query", () => {
    const line = curlLine({ method: "GET", url: "http://h/v1/x?apiKey=secret-key&a=1", headers: { Authorization: "Bearer secret-key" }, body: undefined });
    expect(line).not.toContain("secret-key");
    expect(line).toBe(`curl -sS -i -H "Authorization: Bearer $SHARDKIT_API_KEY" "http://h/v1/x?apiKey=$SHARDKIT_API_KEY&a=1"`);
  });
});

describe("invalidParamsFor", () => {
  it("derives variants from the schema, each one the spec's validator rejects", () => {
    const valid = { request_type: "view_account", finality: "final", account_id: "alice.near" };
    expect(validateParams.query(valid)).toBe(true);
    const variants = invalidParamsFor("query", valid);
    expect(variants.map((v) => v.description)).toEqual(
      expect.arrayContaining(["account_id of a wrong type", "account_id badly encoded", "account_id missing", "finality of a wrong type"]),
    );
    // query ignores unknown fields, as nearcore does (x-unknown-params: ignore): not an invalid variant.
    expect(variants.map((v) => v.description)).not.toContain("an unknown field");
    for (const variant of variants) expect(validateParams.query(variant.params), variant.description).toBe(false);
  });

  it("leaves out variants the schema accepts (block_id null is valid for gas_price)", () => {
    const variants = invalidParamsFor("gas_price", { block_id: 5 });
    expect(variants.map((v) => v.description)).toEqual(["block_id of a wrong type", "block_id negative", "block_id beyond 2^53"]);
  });

  it("adds the unknown field only for methods that deny one (shardkit_revert)", () => {
    expect(invalidParamsFor("shardkit_revert", { snapshot_id: "0x1" }).map((v) => v.description)).toContain("an unknown field");
  });
});

describe("report formats", () => {
  it("prints a failure with its reason and curl line, and flags shardkit-only checks", () => {
    expect(formatResultLines(result({ outcome: "fail", message: "bad", curl: "curl x", shardkitOnly: true }))).toEqual([
      "FAIL conformance  rpc block block_final [shardkit-only]",
      "     bad",
      "     curl x",
    ]);
    expect(formatResultLines(result({ outcome: "skip", message: "needs --archival" }))).toEqual(["SKIP conformance  rpc block block_final (needs --archival)"]);
  });

  it("writes JUnit XML with escaped text, failures and skips", () => {
    const results = [result({}), result({ group: "negative", name: `a <b> & "c"`, outcome: "fail", message: "got <html>", curl: "curl 'x'" }), result({ outcome: "skip", message: "no tx" })];
    const xml = formatJunit({ results, passed: 1, failed: 1, skipped: 1 });
    expect(xml).toContain(`<testsuites name="shardkit contract-test" tests="3" failures="1" skipped="1">`);
    expect(xml).toContain(`<testsuite name="conformance" tests="2" failures="0" skipped="1"`);
    expect(xml).toContain(`name="a &lt;b&gt; &amp; &quot;c&quot;"`);
    expect(xml).toContain(`<failure message="got &lt;html&gt;">got &lt;html&gt;\ncurl 'x'</failure>`);
    expect(xml).toContain(`<skipped message="no tx"/>`);
  });
});

describe("--signer", () => {
  it("splits ACCOUNT:SECRET_KEY at the first colon and checks the key's public half", () => {
    const pair = ed25519FromSeed(new Uint8Array(32).fill(7));
    const signer = parseSignerFlag(`alice.near:${pair.secretKeyString}`);
    expect(signer).toEqual({ accountId: "alice.near", secretKey: pair.secretKeyString });
    expect(signerKeyPair(signer.secretKey).publicKeyString).toBe(pair.publicKeyString);
    const other = ed25519FromSeed(new Uint8Array(32).fill(8));
    const mixed = pair.secretKeyString.slice(0, 10) + other.secretKeyString.slice(10);
    expect(() => signerKeyPair(mixed)).toThrow(/secret key/);
    expect(() => signerKeyPair("secp256k1:abc")).toThrow(/ed25519/);
  });
});
