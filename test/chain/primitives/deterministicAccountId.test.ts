import { describe, expect, it } from "vitest";
import type { DeterministicAccountStateInit } from "@shardkit/primitives/action";
import {
  deriveDeterministicAccountId,
  encodeStateInit,
  isNearDeterministicAccountId,
  stateInitDataBytes,
} from "@shardkit/primitives/deterministicAccountId";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const byAccount = (data: [string, string][]): DeterministicAccountStateInit => ({
  version: "V1",
  code: { kind: "AccountId", accountId: "account" },
  data: data.map(([k, v]) => [utf8(k), utf8(v)] as const),
});

describe("NEP-616 deterministic account ids", () => {
  it("derives nearcore's id: V1 {code: AccountId(account), data: {root: ''}} is 0s956d…63eb", () => {
    // nearcore test-loop-tests deterministic_accounts.rs `test_sharded_contract_peer_check_fails`:
    // peer_only called with empty input derives this id from the sharded contract's state init.
    expect(deriveDeterministicAccountId(byAccount([["root", ""]]))).toBe("0s956d38ada09c708ad55824ba9cb162e4669a63eb");
  });

  it("hashes the borsh state init: tag 0, identifier, then the entries in key order", () => {
    const s: DeterministicAccountStateInit = {
      version: "V1",
      code: { kind: "CodeHash", codeHash: new Uint8Array(32).fill(7) },
      data: [[utf8("a"), utf8("bc")]],
    };
    const bytes = encodeStateInit(s);
    expect([...bytes.subarray(0, 2)]).toEqual([0, 0]);
    expect(bytes.length).toBe(1 + 1 + 32 + 4 + (4 + 1) + (4 + 2));
    expect(deriveDeterministicAccountId(s)).toMatch(/^0s[0-9a-f]{40}$/);
  });

  it("counts the keys and values as the bytes of the per-byte fee", () => {
    expect(stateInitDataBytes(byAccount([["key", "value"], ["key2", "value2"]]))).toBe(18);
    expect(stateInitDataBytes(byAccount([]))).toBe(0);
  });

  it("classifies 0s + 40 lowercase hex only", () => {
    expect(isNearDeterministicAccountId("0s956d38ada09c708ad55824ba9cb162e4669a63eb")).toBe(true);
    expect(isNearDeterministicAccountId("0s956D38ada09c708ad55824ba9cb162e4669a63eb")).toBe(false);
    expect(isNearDeterministicAccountId("0s956d38ada09c708ad55824ba9cb162e4669a63e")).toBe(false);
    expect(isNearDeterministicAccountId("0x956d38ada09c708ad55824ba9cb162e4669a63eb")).toBe(false);
    expect(isNearDeterministicAccountId("0s956d38ada09c708ad55824ba9cb162e4669a63eb.near")).toBe(false);
  });
});
