// The conformance check the REST tests rely on catches what it must.

import { describe, expect, it } from "vitest";
import { conformance, operationOf } from "./restClient.js";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("REST conformance check", () => {
  it("rejects undeclared fields, wrong types, undeclared statuses and non-JSON bodies", async () => {
    const ok = { account_id: "a.near", block_height: 1, nfts: [], pools: [], state: null, tokens: [] };
    expect(await conformance("accountFull", json(200, ok))).toEqual([]);
    expect(await conformance("accountFull", json(200, { ...ok, extra: 1 }))).not.toEqual([]);
    expect(await conformance("accountFull", json(200, { ...ok, state: { balance: 1, locked: "0", storage_bytes: 1 } }))).not.toEqual([]);
    expect(await conformance("status", json(400, "Invalid argument"))).toEqual(["status: status 400 has no JSON body in the spec"]);
    expect(await conformance("accountFull", new Response("x", { status: 200, headers: { "content-type": "text/html" } }))).not.toEqual([]);
  });

  it("maps concrete paths to operations", () => {
    expect(operationOf("/v1/account/a.near/full")).toBe("accountFull");
    expect(operationOf("/v1/public_key/ed25519:x/all")).toBe("publicKeyAllAccounts");
    expect(operationOf("/v1/nope")).toBeUndefined();
  });
});
