import { describe, expect, it } from "vitest";
import { validateParams } from "../../../generated/rpc/validators.js";
import { ParseError } from "../../../src/server/errors.js";
import { normaliseParams } from "../../../src/server/jsonrpc/legacyParams.js";

// The unknown-field rule as the request pipeline applies it (normaliseParams, then the generated
// validator), including the hole it closes: the validators track evaluated fields in plain
// objects, so `constructor`/`__proto__` pass `unevaluatedProperties: false` on their own.
const VIEW = '{"request_type":"view_account","account_id":"a.near","finality":"final"';

describe("x-unknown-params", () => {
  it.each(["constructor", "__proto__", "toString", "valueOf", "x"])("query keeps only declared fields: `%s` is dropped", (name) => {
    const raw = JSON.parse(`${VIEW},"${name}":{"account_id":"b.near"}}`) as object;
    expect(Object.hasOwn(raw, name)).toBe(true);
    const params = normaliseParams("query", raw) as Record<string, unknown>;
    expect(Object.keys(params).sort()).toEqual(["account_id", "finality", "request_type"]);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(params.account_id).toBe("a.near");
    expect(validateParams.query(params)).toBe(true);
  });

  it("drops a field of another variant (view_access_key's public_key on view_account)", () => {
    const params = normaliseParams("query", JSON.parse(`${VIEW},"public_key":"ed25519:x"}`)) as Record<string, unknown>;
    expect(params).toEqual({ request_type: "view_account", account_id: "a.near", finality: "final" });
  });

  it("keeps every field when the discriminator names no variant, so the validator reports the tag", () => {
    const params = normaliseParams("query", { request_type: "view_nothing", account_id: "a.near", finality: "final", public_key: "k" });
    expect(params).toEqual({ request_type: "view_nothing", account_id: "a.near", finality: "final", public_key: "k" });
    expect(validateParams.query(params)).toBe(false);
  });

  it.each(["x", "constructor", "__proto__"])("a deny method refuses `%s`", (name) => {
    expect(() => normaliseParams("shardkit_revert", JSON.parse(`{"snapshot_id":"0x1","${name}":1}`))).toThrow(ParseError);
  });

  it("the raw validator alone lets the built-in names through where this rule is needed", () => {
    // Documents why the rule runs before validation: without it these would count as fields.
    expect(validateParams.query(JSON.parse(`${VIEW},"constructor":1}`))).toBe(true);
    expect(validateParams.query(JSON.parse(`${VIEW},"x":1}`))).toBe(false);
  });
});
