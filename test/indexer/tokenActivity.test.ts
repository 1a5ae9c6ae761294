// FastNEAR's token rules on single receipts: method calls, every data[] entry of NEP-297
// events, pools, failures, and malformed input.

import { describe, expect, it } from "vitest";
import { parseNep297Log } from "../../src/indexer/nep297.js";
import { isStakingPool, tokenActivity, type ExecutedReceipt } from "../../src/indexer/tokenActivity.js";

const call = (methodName: string, args: unknown = {}) => ({ methodName, args: Buffer.from(JSON.stringify(args)) });
const receipt = (over: Partial<ExecutedReceipt>): ExecutedReceipt => ({
  predecessorId: "alice.near",
  receiverId: "ft.near",
  calls: [],
  succeeded: true,
  logs: [],
  ...over,
});
const event = (standard: string, name: string, data: unknown) =>
  `EVENT_JSON:${JSON.stringify({ standard, version: "1.0.0", event: name, data })}`;

describe("tokenActivity", () => {
  it("ft_transfer gives the sender and the receiver", () => {
    expect(tokenActivity(receipt({ calls: [call("ft_transfer", { receiver_id: "bob.near", amount: "5" })] }))).toEqual({
      ft: [
        { accountId: "alice.near", contractId: "ft.near" },
        { accountId: "bob.near", contractId: "ft.near" },
      ],
      nft: [],
      pools: [],
    });
  });

  it("keeps every data[] entry of an event (FastNEAR keeps only the first)", () => {
    const logs = [
      event("nep141", "ft_transfer", [
        { old_owner_id: "a.near", new_owner_id: "b.near", amount: "1" },
        { old_owner_id: "c.near", new_owner_id: "d.near", amount: "2" },
      ]),
      event("nep141", "ft_mint", [{ owner_id: "e.near", amount: "3" }]),
    ];
    const { ft } = tokenActivity(receipt({ predecessorId: "ft.near", logs }));
    expect(ft.map((r) => r.accountId)).toEqual(["a.near", "b.near", "c.near", "d.near", "e.near"]);
  });

  it("nft calls and events go to nft rows; ft_resolve_transfer gives sender and receiver", () => {
    const nft = tokenActivity(
      receipt({
        receiverId: "nft.near",
        calls: [call("nft_transfer", { receiver_id: "bob.near", token_id: "1" })],
        logs: [event("nep171", "nft_mint", [{ owner_id: "carol.near", token_ids: ["2"] }])],
      }),
    );
    expect(nft.nft.map((r) => r.accountId)).toEqual(["alice.near", "bob.near", "carol.near"]);
    expect(nft.ft).toEqual([]);
    const resolve = tokenActivity(receipt({ predecessorId: "ft.near", calls: [call("ft_resolve_transfer", { sender_id: "x.near", receiver_id: "y.near", amount: "1" })] }));
    expect(resolve.ft.map((r) => r.accountId)).toEqual(["x.near", "y.near"]);
  });

  it("any call to a pool is a pool row, and FT rules are skipped there", () => {
    const activity = tokenActivity(receipt({ receiverId: "pool.test.near", calls: [call("deposit_and_stake")] }));
    expect(activity).toEqual({ ft: [], nft: [], pools: [{ accountId: "alice.near", poolId: "pool.test.near" }] });
    expect(["here.poolv1.near", "usn.pool.near", "x.pool.f863973.m0", "pool.test.near"].every(isStakingPool)).toBe(true);
    expect(["pool", "poolside.near", "mypool.near", "near.pool"].some(isStakingPool)).toBe(false);
  });

  it("ignores failed receipts, invalid account ids, bad JSON and non-events", () => {
    expect(tokenActivity(receipt({ succeeded: false, calls: [call("ft_transfer", { receiver_id: "bob.near" })] })).ft).toEqual([]);
    const noisy = tokenActivity(
      receipt({
        calls: [call("ft_transfer", { receiver_id: "Not Valid" }), { methodName: "ft_mint", args: Buffer.from("{oops") }],
        logs: ["EVENT_JSON:{broken", "hello", event("nep141", "ft_burn", [{ owner_id: 7 }]), event("nep141", "ft_burn", { owner_id: "z.near" })],
      }),
    );
    expect(noisy.ft.map((r) => r.accountId)).toEqual(["alice.near", "alice.near", "z.near"]);
  });

  it("parses NEP-297 logs strictly", () => {
    expect(parseNep297Log('EVENT_JSON:{"standard":"nep141","version":"1.0.0","event":"ft_mint","data":[{"owner_id":"a.near"}]}')).toEqual({
      standard: "nep141",
      version: "1.0.0",
      event: "ft_mint",
      data: [{ owner_id: "a.near" }],
    });
    expect(parseNep297Log('EVENT_JSON:{"standard":"nep141","event":"ft_mint"}')).toBeUndefined();
    expect(parseNep297Log('EVENT_JSON:[1]')).toBeUndefined();
    expect(parseNep297Log('LOG:{"standard":"x","version":"1","event":"y"}')).toBeUndefined();
  });
});
