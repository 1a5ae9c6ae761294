import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MockedBlockchain, contractWasm } from "./support/MockedBlockchain.js";

const RELAY = "relay.test.near";
const TGAS = 10n ** 12n;
const bytes = (s: string) => new TextEncoder().encode(s);

describe("relay contract (real VM, one-account harness)", () => {
  const relay = new MockedBlockchain(contractWasm("relay"), RELAY);

  it("forward creates the call and a callback on itself, and returns the callback", () => {
    const r = relay.call("forward", {
      receiver_id: "kv.test.near",
      method_name: "get",
      args: { key: "a:0001" },
      gas: 20_000_000_000_000,
    });
    expect(r.promises).toEqual([
      {
        receiver: "kv.test.near",
        after: [],
        actions: [{ kind: "function_call", method: "get", args: '{"key":"a:0001"}', amount: 0n, gas: 20n * TGAS }],
      },
      {
        receiver: RELAY,
        after: [0],
        actions: [{ kind: "function_call", method: "on_forward", args: "{}", amount: 0n, gas: 10n * TGAS }],
      },
    ]);
    expect(r.returnedPromise).toBe(1);
    const cb = relay.call("on_forward", {}, { predecessor: RELAY, promiseResults: [bytes('"v"')] });
    expect(JSON.parse(cb.value)).toEqual({ status: "Successful", value: '"v"' });
    expect(cb.logs).toEqual(["on_forward sees 1 result(s)"]);
    expect(JSON.parse(relay.call("on_forward", {}, { predecessor: RELAY, promiseResults: [null] }).value)).toEqual({
      status: "Failed",
    });
    expect(() => relay.call("on_forward", {}, { predecessor: "alice.test.near", promiseResults: [null] })).toThrow(
      "Method on_forward is private",
    );
  });

  it("join ands two calls; join_with_failure pairs a call with always_fail", () => {
    const j = relay.call("join", {
      a: { receiver_id: "a.near", method_name: "echo", args: { x: 1 } },
      b: { receiver_id: "b.near", method_name: "echo" },
    });
    expect(j.promises.map((p) => [p.receiver, p.after, p.actions.map((a) => a.method)])).toEqual([
      ["a.near", [], ["echo"]],
      ["b.near", [], ["echo"]],
      [RELAY, [0, 1], ["on_join"]], // promise_and makes no receipt: the callback waits on both
    ]);
    expect(j.returnedPromise).toBe(2);
    const f = relay.call("join_with_failure", { receiver_id: RELAY, method_name: "echo", args: { hi: "there" } });
    expect(f.promises.map((p) => [p.receiver, p.after, p.actions.map((a) => a.method)])).toEqual([
      [RELAY, [], ["echo"]],
      [RELAY, [], ["always_fail"]],
      [RELAY, [0, 1], ["on_join"]],
    ]);
    const cb = relay.call("on_join", {}, { predecessor: RELAY, promiseResults: [bytes('{"hi":"there"}'), null] });
    expect(JSON.parse(cb.value)).toEqual([{ status: "Successful", value: '{"hi":"there"}' }, { status: "Failed" }]);
    expect(() => relay.call("always_fail")).toThrow("relay: this branch fails on purpose");
  });

  it("echo returns its arguments", () => {
    const r = relay.call("echo", { a: [1, 'x"y', null, true], b: { c: -1.5e3 } });
    expect(JSON.parse(r.value)).toEqual({ a: [1, 'x"y', null, true], b: { c: -1.5e3 } });
    expect(r.logs).toEqual(['echo {"a":[1,"x\\"y",null,true],"b":{"c":-1500}}']);
  });

  it("echo round-trips any JSON object through sdk/json's reader and writer", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: "grapheme" }), fc.jsonValue({ maxDepth: 4, stringUnit: "grapheme" })),
        (obj) => {
          const input = JSON.parse(JSON.stringify(obj)) as unknown; // what the caller sends (-0 becomes 0)
          expect(JSON.parse(relay.call("echo", input).value)).toEqual(input);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("ft_on_transfer keeps part and returns the rest", () => {
    const on = (msg: string) =>
      relay.call("ft_on_transfer", { sender_id: "test.near", amount: "100", msg }, { predecessor: "ft.test.near" });
    expect(on("keep 30").value).toBe('"70"');
    expect(on("keep 30").logs).toEqual(["relay keeps 30 of 100 from test.near via ft.test.near"]);
    expect(on("keep 500").value).toBe('"0"');
    expect(on("return all").value).toBe('"100"');
    expect(on("").value).toBe('"0"');
    expect(() => on("panic")).toThrow("relay: ft_on_transfer refuses the tokens");
  });

  it("nft_on_transfer keeps the token or asks for it back", () => {
    const on = (msg: string) =>
      relay.call(
        "nft_on_transfer",
        { sender_id: "a.near", previous_owner_id: "a.near", token_id: "t", msg },
        { predecessor: "nft.test.near" },
      );
    expect(on("").value).toBe("false");
    expect(on("").logs).toEqual(["relay keeps t from a.near via nft.test.near"]);
    expect(on("return").value).toBe("true");
    expect(() => on("panic")).toThrow("relay: nft_on_transfer refuses the token");
  });
});
