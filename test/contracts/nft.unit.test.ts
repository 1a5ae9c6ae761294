import { describe, expect, it } from "vitest";
import { MockedBlockchain, contractWasm } from "./support/MockedBlockchain.js";

const NFT = "nft.test.near";
const META = { spec: "nft-1.0.0", name: "Shardkit NFT", symbol: "SKN" };
const event = (e: string, data: unknown[]) =>
  `EVENT_JSON:${JSON.stringify({ standard: "nep171", version: "1.0.0", event: e, data })}`;
const fullMeta = (title: string) => ({
  title,
  description: null,
  media: null,
  media_hash: null,
  copies: null,
  issued_at: null,
  expires_at: null,
  starts_at: null,
  updated_at: null,
  extra: null,
  reference: null,
  reference_hash: null,
});

function deployed() {
  const nft = new MockedBlockchain(contractWasm("nft"), NFT);
  nft.call("new", { owner_id: "test.near", metadata: META });
  return nft;
}

describe("nft contract (real VM, one-account harness)", () => {
  it("mints with a storage deposit, emitting nft_mint, and refunds the excess", () => {
    const nft = deployed();
    expect(nft.view("nft_metadata")).toEqual({
      ...META,
      icon: null,
      base_uri: null,
      reference: null,
      reference_hash: null,
    });
    const usage = nft.storageUsage;
    const r = nft.call(
      "nft_mint",
      { token_id: "t1", token_owner_id: "alice.test.near", token_metadata: { title: "One" } },
      { predecessor: "test.near", deposit: 10n ** 23n },
    );
    const cost = (nft.storageUsage - usage) * 10n ** 19n;
    expect(r.logs).toEqual([event("nft_mint", [{ owner_id: "alice.test.near", token_ids: ["t1"] }])]);
    expect(r.promises).toEqual([
      { receiver: "test.near", after: [], actions: [{ kind: "transfer", amount: 10n ** 23n - cost }] },
    ]);
    expect(JSON.parse(r.value)).toEqual({
      token_id: "t1",
      owner_id: "alice.test.near",
      metadata: fullMeta("One"),
      approved_account_ids: null,
    });
    expect(() =>
      nft.call(
        "nft_mint",
        { token_id: "t2", token_owner_id: "bob.test.near", token_metadata: {} },
        { predecessor: "test.near", deposit: 1n },
      ),
    ).toThrow(/^Must attach \d+ yoctoNEAR to cover storage$/);
    expect(() =>
      nft.call(
        "nft_mint",
        { token_id: "t1", token_owner_id: "bob.test.near", token_metadata: {} },
        { predecessor: "test.near", deposit: 10n ** 23n },
      ),
    ).toThrow("token_id must be unique");
    expect(() =>
      nft.call(
        "nft_mint",
        { token_id: "t9", token_owner_id: "bob.test.near", token_metadata: {} },
        { predecessor: "alice.test.near", deposit: 10n ** 23n },
      ),
    ).toThrow("Unauthorized");
    expect(() =>
      nft.call(
        "nft_mint",
        { token_id: "t9", token_owner_id: "bob.test.near" },
        { predecessor: "test.near", deposit: 10n ** 23n },
      ),
    ).toThrow("Must provide metadata");
  });

  it("transfers (1 yocto, owner only) with nft_transfer events, and enumerates", () => {
    const nft = deployed();
    for (const [id, owner] of [
      ["c", "alice.test.near"],
      ["a", "alice.test.near"],
      ["b", "bob.test.near"],
    ] as const) {
      nft.call(
        "nft_mint",
        { token_id: id, token_owner_id: owner, token_metadata: { title: id, copies: 1 } },
        { predecessor: "test.near", deposit: 10n ** 23n },
      );
    }
    const r = nft.call(
      "nft_transfer",
      { receiver_id: "bob.test.near", token_id: "c", memo: "gift" },
      { predecessor: "alice.test.near", deposit: 1n },
    );
    expect(r.logs).toEqual([
      event("nft_transfer", [
        { old_owner_id: "alice.test.near", new_owner_id: "bob.test.near", token_ids: ["c"], memo: "gift" },
      ]),
    ]);
    const x = (args: object, ctx: object) => () => nft.call("nft_transfer", args, ctx);
    expect(
      x({ receiver_id: "carol.test.near", token_id: "c" }, { predecessor: "alice.test.near", deposit: 1n }),
    ).toThrow("Approval extension is disabled");
    expect(
      x({ receiver_id: "carol.test.near", token_id: "zz" }, { predecessor: "alice.test.near", deposit: 1n }),
    ).toThrow("Token not found");
    expect(x({ receiver_id: "bob.test.near", token_id: "c" }, { predecessor: "bob.test.near", deposit: 1n })).toThrow(
      "Current and next owner must differ",
    );
    expect(x({ receiver_id: "carol.test.near", token_id: "c" }, { predecessor: "bob.test.near" })).toThrow(
      "Requires attached deposit of exactly 1 yoctoNEAR",
    );

    const ids = (v: unknown) => (v as { token_id: string }[]).map((t) => t.token_id);
    expect(nft.view("nft_total_supply")).toBe("3");
    expect(ids(nft.view("nft_tokens"))).toEqual(["a", "b", "c"]);
    expect(ids(nft.view("nft_tokens", { from_index: "1", limit: 1 }))).toEqual(["b"]);
    expect(ids(nft.view("nft_tokens_for_owner", { account_id: "bob.test.near" }))).toEqual(["b", "c"]);
    expect(ids(nft.view("nft_tokens_for_owner", { account_id: "alice.test.near" }))).toEqual(["a"]);
    expect(nft.view("nft_tokens_for_owner", { account_id: "nobody.near" })).toEqual([]);
    expect(nft.view("nft_supply_for_owner", { account_id: "bob.test.near" })).toBe("2");
    expect(nft.view("nft_token", { token_id: "c" })).toEqual({
      token_id: "c",
      owner_id: "bob.test.near",
      metadata: { ...fullMeta("c"), copies: 1 },
      approved_account_ids: null,
    });
    expect(nft.view("nft_token", { token_id: "zz" })).toBeNull();
    expect(() => nft.call("nft_tokens", { limit: 0 })).toThrow("Cannot provide limit of 0.");
    expect(() => nft.call("nft_tokens", { from_index: "4" })).toThrow(
      "Out of bounds, please use a smaller from_index.",
    );
  });

  it("transfer_call: calls nft_on_transfer then nft_resolve_transfer, which returns the token when asked", () => {
    const nft = deployed();
    nft.call(
      "nft_mint",
      { token_id: "t", token_owner_id: "alice.test.near", token_metadata: {} },
      { predecessor: "test.near", deposit: 10n ** 23n },
    );
    const r = nft.call(
      "nft_transfer_call",
      { receiver_id: "relay.test.near", token_id: "t", msg: "return" },
      { predecessor: "alice.test.near", deposit: 1n },
    );
    expect(r.promises.map((p) => [p.receiver, p.after, p.actions.map((a) => [a.method, a.args, a.gas])])).toEqual([
      [
        "relay.test.near",
        [],
        [
          [
            "nft_on_transfer",
            JSON.stringify({
              sender_id: "alice.test.near",
              previous_owner_id: "alice.test.near",
              token_id: "t",
              msg: "return",
            }),
            280_916_591_048_960n, // 270 Tgas + half the unused gas (weight 1 each)
          ],
        ],
      ],
      [
        NFT,
        [0],
        [
          [
            "nft_resolve_transfer",
            JSON.stringify({
              previous_owner_id: "alice.test.near",
              receiver_id: "relay.test.near",
              token_id: "t",
              approved_account_ids: null,
            }),
            15_916_591_048_961n, // 5 Tgas + the other half
          ],
        ],
      ],
    ]);
    expect(r.returnedPromise).toBe(1);
    expect(r.usedGas).toBe(300_000_000_000_000n);
    const resolve = (result: Uint8Array | null) =>
      nft.call(
        "nft_resolve_transfer",
        { previous_owner_id: "alice.test.near", receiver_id: "relay.test.near", token_id: "t" },
        { predecessor: NFT, promiseResults: [result] },
      );
    const kept = resolve(new TextEncoder().encode("false"));
    expect([kept.value, kept.logs]).toEqual(["true", []]);
    expect(nft.view("nft_token", { token_id: "t" })).toMatchObject({ owner_id: "relay.test.near" });
    const back = resolve(null);
    expect(back.value).toBe("false");
    expect(back.logs).toEqual([
      event("nft_transfer", [{ old_owner_id: "relay.test.near", new_owner_id: "alice.test.near", token_ids: ["t"] }]),
    ]);
    expect(nft.view("nft_token", { token_id: "t" })).toMatchObject({ owner_id: "alice.test.near" });
    // Not the receiver's any more: the transfer stands.
    expect(resolve(new TextEncoder().encode("true")).value).toBe("true");
    expect(() => nft.call("nft_resolve_transfer", {}, { predecessor: "alice.test.near" })).toThrow(
      "Method nft_resolve_transfer is private",
    );
  });
});
