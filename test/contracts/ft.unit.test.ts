import { describe, expect, it } from "vitest";
import { MockedBlockchain, contractWasm } from "./support/MockedBlockchain.js";

const FT = "ft.test.near";
const META = { spec: "ft-1.0.0", name: "Shardkit Token", symbol: "SKT", decimals: 18 };
const SUPPLY = 10n ** 27n;
const MIN_STORAGE = 1_250_000_000_000_000_000_000n;
const event = (e: string, data: unknown[]) =>
  `EVENT_JSON:${JSON.stringify({ standard: "nep141", version: "1.0.0", event: e, data })}`;

function deployed() {
  const ft = new MockedBlockchain(contractWasm("ft"), FT);
  const { logs } = ft.call(
    "new",
    { owner_id: "test.near", total_supply: SUPPLY.toString(), metadata: META },
    { predecessor: FT },
  );
  expect(logs).toEqual([
    event("ft_mint", [{ owner_id: "test.near", amount: SUPPLY.toString(), memo: "new tokens are minted" }]),
  ]);
  for (const id of ["alice.test.near", "bob.test.near"])
    ft.call("storage_deposit", { account_id: id }, { deposit: MIN_STORAGE });
  return ft;
}

describe("ft contract (real VM, one-account harness)", () => {
  it("initialises like near-sdk's FungibleToken: metadata, supply, 1.25e21 storage bound", () => {
    const ft = deployed();
    expect(ft.view("ft_metadata")).toEqual({
      spec: "ft-1.0.0",
      name: "Shardkit Token",
      symbol: "SKT",
      icon: null,
      reference: null,
      reference_hash: null,
      decimals: 18,
    });
    expect(ft.view("ft_total_supply")).toBe(SUPPLY.toString());
    expect(ft.view("ft_balance_of", { account_id: "test.near" })).toBe(SUPPLY.toString());
    expect(ft.view("ft_balance_of", { account_id: "nobody.near" })).toBe("0");
    expect(ft.view("storage_balance_bounds")).toEqual({ min: MIN_STORAGE.toString(), max: MIN_STORAGE.toString() });
    expect(ft.view("storage_balance_of", { account_id: "alice.test.near" })).toEqual({
      total: MIN_STORAGE.toString(),
      available: "0",
    });
    expect(ft.view("storage_balance_of", { account_id: "nobody.near" })).toBeNull();
    expect(() => ft.call("new", { owner_id: "x.near", total_supply: "1", metadata: META })).toThrow(
      "The contract has already been initialized",
    );
  });

  it("transfers with 1 yocto, emitting ft_transfer, with near-sdk's panics", () => {
    const ft = deployed();
    const r = ft.call(
      "ft_transfer",
      { receiver_id: "alice.test.near", amount: "1000", memo: "hi" },
      { predecessor: "test.near", deposit: 1n },
    );
    expect(r.logs).toEqual([
      event("ft_transfer", [
        { old_owner_id: "test.near", new_owner_id: "alice.test.near", amount: "1000", memo: "hi" },
      ]),
    ]);
    expect(ft.view("ft_balance_of", { account_id: "alice.test.near" })).toBe("1000");
    expect(ft.view("ft_balance_of", { account_id: "test.near" })).toBe((SUPPLY - 1000n).toString());
    const t = (args: object, ctx: object) => () => ft.call("ft_transfer", args, ctx);
    expect(t({ receiver_id: "bob.test.near", amount: "1" }, { predecessor: "alice.test.near" })).toThrow(
      "Requires attached deposit of exactly 1 yoctoNEAR",
    );
    expect(t({ receiver_id: "carol.test.near", amount: "1" }, { predecessor: "alice.test.near", deposit: 1n })).toThrow(
      "The account carol.test.near is not registered",
    );
    expect(
      t({ receiver_id: "bob.test.near", amount: "1001" }, { predecessor: "alice.test.near", deposit: 1n }),
    ).toThrow("The account doesn't have enough balance");
    expect(t({ receiver_id: "alice.test.near", amount: "1" }, { predecessor: "alice.test.near", deposit: 1n })).toThrow(
      "Sender and receiver should be different",
    );
    expect(t({ receiver_id: "bob.test.near", amount: "0" }, { predecessor: "alice.test.near", deposit: 1n })).toThrow(
      "The amount should be a positive number",
    );
    expect(t({ receiver_id: "bob.test.near", amount: 5 }, { predecessor: "alice.test.near", deposit: 1n })).toThrow(
      "Failed to deserialize input from JSON.",
    );
  });

  it("transfer_call: calls ft_on_transfer then ft_resolve_transfer, which refunds the unused amount", () => {
    const ft = deployed();
    const r = ft.call(
      "ft_transfer_call",
      { receiver_id: "bob.test.near", amount: "100", msg: "keep 30" },
      { predecessor: "test.near", deposit: 1n },
    );
    expect(r.promises).toEqual([
      {
        receiver: "bob.test.near",
        after: [],
        actions: [
          {
            kind: "function_call",
            method: "ft_on_transfer",
            args: JSON.stringify({ sender_id: "test.near", amount: "100", msg: "keep 30" }),
            amount: 0n,
            // 0 attached with weight 1, as near-sdk 5 does: the VM hands it all the unused gas.
            gas: 291_972_497_940_887n,
          },
        ],
      },
      {
        receiver: FT,
        after: [0],
        actions: [
          {
            kind: "function_call",
            method: "ft_resolve_transfer",
            args: JSON.stringify({ sender_id: "test.near", receiver_id: "bob.test.near", amount: "100" }),
            amount: 0n,
            gas: 5_000_000_000_000n,
          },
        ],
      },
    ]);
    expect(r.returnedPromise).toBe(1);
    expect(r.usedGas).toBe(300_000_000_000_000n); // nothing left unused after the distribution
    expect(ft.view("ft_balance_of", { account_id: "bob.test.near" })).toBe("100");
    const resolve = (result: Uint8Array | null) =>
      ft.call(
        "ft_resolve_transfer",
        { sender_id: "test.near", receiver_id: "bob.test.near", amount: "100" },
        { predecessor: FT, promiseResults: [result] },
      );
    const res = resolve(new TextEncoder().encode('"70"'));
    expect(res.value).toBe('"30"');
    expect(res.logs).toEqual([
      event("ft_transfer", [
        { old_owner_id: "bob.test.near", new_owner_id: "test.near", amount: "70", memo: "refund" },
      ]),
    ]);
    expect(ft.view("ft_balance_of", { account_id: "bob.test.near" })).toBe("30");
    // A failed receiver refunds everything it still holds.
    expect(resolve(null).value).toBe('"70"');
    expect(ft.view("ft_balance_of", { account_id: "bob.test.near" })).toBe("0");
    expect(ft.view("ft_balance_of", { account_id: "test.near" })).toBe(SUPPLY.toString());
    expect(() =>
      ft.call(
        "ft_resolve_transfer",
        { sender_id: "a", receiver_id: "b", amount: "1" },
        { predecessor: "bob.test.near" },
      ),
    ).toThrow("Method ft_resolve_transfer is private");
  });

  it("storage_deposit refunds above the minimum; unregister needs force with a balance", () => {
    const ft = deployed();
    const r = ft.call("storage_deposit", {}, { predecessor: "carol.test.near", deposit: MIN_STORAGE + 5n });
    expect(JSON.parse(r.value)).toEqual({ total: MIN_STORAGE.toString(), available: "0" });
    expect(r.promises).toEqual([
      { receiver: "carol.test.near", after: [], actions: [{ kind: "transfer", amount: 5n }] },
    ]);
    const again = ft.call("storage_deposit", {}, { predecessor: "carol.test.near", deposit: 7n });
    expect(again.logs).toEqual(["The account is already registered, refunding the deposit"]);
    expect(again.promises[0]!.actions).toEqual([{ kind: "transfer", amount: 7n }]);
    expect(() => ft.call("storage_deposit", {}, { predecessor: "dave.near", deposit: MIN_STORAGE - 1n })).toThrow(
      "The attached deposit is less than the minimum storage balance",
    );
    ft.call("ft_transfer", { receiver_id: "carol.test.near", amount: "10" }, { predecessor: "test.near", deposit: 1n });
    expect(() => ft.call("storage_unregister", {}, { predecessor: "carol.test.near", deposit: 1n })).toThrow(
      "Can't unregister the account with the positive balance without force",
    );
    const u = ft.call("storage_unregister", { force: true }, { predecessor: "carol.test.near", deposit: 1n });
    expect(u.value).toBe("true");
    expect(u.logs).toEqual(["Closed @carol.test.near with 10"]);
    expect(u.promises[0]!.actions).toEqual([{ kind: "transfer", amount: MIN_STORAGE + 1n }]);
    expect(ft.view("ft_total_supply")).toBe((SUPPLY - 10n).toString());
    expect(ft.view("storage_balance_of", { account_id: "carol.test.near" })).toBeNull();
  });
});
