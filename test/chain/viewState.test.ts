import { describe, expect, it } from "vitest";
import { KV_ACCOUNT, kvFixtureEntries } from "../../src/chain/genesis/devGenesis.js";
import { Chain, UnknownAccountError } from "../../src/chain/node.js";
import { ContractStateTooLargeError, STATE_VIEW_SIZE_LIMIT } from "../../src/chain/state/StateView.js";
import { parseCryptoHash } from "../../src/chain/primitives/cryptoHash.js";
import { MAX_VIEW_STATE_PAGE_BYTES } from "../../src/chain/state/viewStateIn.js";
import { StateProofError, verifyStateProof } from "../../src/proof/verifyStateProof.js";

const chain = await Chain.open({ blockTimeMs: 0, now: () => 1_700_000_000_000 });
const block = chain.genesisBlock;
const u8 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));
const str = (b: Uint8Array) => Buffer.from(b).toString("latin1");
// Per item, nearcore counts the full trie key: 0x09 ‖ "kv.test.near" ‖ ',' ‖ key (14 + key bytes).
const ACCOUNT_PREFIX_LEN = 1 + KV_ACCOUNT.length + 1;

/** The naive model: every entry, sorted by raw key bytes. */
const model = kvFixtureEntries()
  .map((e) => ({ key: str(e.key), value: str(e.value) }))
  .sort((a, b) => (a.key < b.key ? -1 : 1));

function view(opts: { prefix?: string; afterKey?: string; limit?: number; includeProof?: boolean }) {
  const r = chain.at(block).contractState(KV_ACCOUNT, {
    prefix: u8(opts.prefix ?? ""),
    ...(opts.afterKey !== undefined && { afterKey: u8(opts.afterKey) }),
    ...(opts.limit !== undefined && { limit: opts.limit }),
    ...(opts.includeProof !== undefined && { includeProof: opts.includeProof }),
  });
  return { keys: r.values.map((v) => str(v.key)), values: r.values, lastKey: r.lastKey === undefined ? undefined : str(r.lastKey), proof: r.proof };
}

/** What nearcore's rules give for a paginated request, computed from the model. */
function expectedPage(prefix: string, afterKey: string | undefined, limit: number | undefined) {
  const items = model.filter((e) => e.key.startsWith(prefix) && (afterKey === undefined || e.key > afterKey));
  const maxItems = Math.min(limit ?? 10_000, 10_000);
  const page: string[] = [];
  let bytes = 0;
  for (const e of items) {
    if (page.length >= maxItems || bytes >= MAX_VIEW_STATE_PAGE_BYTES) return { keys: page, lastKey: page[page.length - 1] };
    bytes += ACCOUNT_PREFIX_LEN + e.key.length + e.value.length;
    page.push(e.key);
  }
  return { keys: page, lastKey: undefined };
}

describe("viewState paging (nearcore 2.13 rules)", () => {
  it("returns everything in raw byte order when unpaginated (even above 50 KB without a size limit)", () => {
    const all = view({});
    expect(all.keys).toEqual(model.map((e) => e.key));
    expect(all.values.map((v) => str(v.value))).toEqual(model.map((e) => e.value));
    expect(all.lastKey).toBeUndefined();
    expect(all.proof).toBeUndefined();
    expect(all.keys[0]).toBe("STATE");
    expect(all.keys.at(-1)).toBe("\xff\x63");
  });

  it("refuses an unpaginated read over the size limit (storage usage without code, as nearcore's TrieViewer), never a page", () => {
    const usage = chain.at(block).storageUsage(KV_ACCOUNT)! - chain.at(block).codeLength(KV_ACCOUNT);
    const read = (sizeLimit: number, paging = {}) => () => chain.at(block).contractState(KV_ACCOUNT, { prefix: u8(""), sizeLimit, ...paging });
    expect(usage).toBeGreaterThan(STATE_VIEW_SIZE_LIMIT);
    expect(read(STATE_VIEW_SIZE_LIMIT)).toThrow(ContractStateTooLargeError);
    expect(read(usage - 1)).toThrow(ContractStateTooLargeError);
    expect(read(usage)().values).toHaveLength(model.length);
    expect(read(0, { limit: 3 })().values).toHaveLength(3);
    expect(read(0, { afterKey: u8("a:") })().values.length).toBeGreaterThan(0);
    expect(() => chain.at(block).contractState("nobody.test.near", { prefix: u8("") })).toThrow(UnknownAccountError);
  });

  it("cuts a page at the limit and reports last_key", () => {
    const p = view({ limit: 5 });
    expect(p.keys).toEqual(["STATE", "a:0000", "a:0001", "a:0002", "a:0003"]);
    expect(p.lastKey).toBe("a:0003");
  });

  it("applies the soft 50,000-byte cap before each append, so the last item overshoots", () => {
    const p = view({ limit: 10_000 });
    // STATE (14+5+19=38) + 1,000 "a:" items (14+6+16=36 each) + 269 "b:" items (14+6+32=52 each)
    expect(p.keys.length).toBe(1 + 1000 + 269);
    const bytes = p.values.reduce((n, v) => n + ACCOUNT_PREFIX_LEN + v.key.length + v.value.length, 0);
    expect(bytes).toBe(50_026);
    expect(bytes - 52).toBeLessThan(MAX_VIEW_STATE_PAGE_BYTES);
    expect(p.lastKey).toBe(p.keys.at(-1));
    expect(p).toMatchObject(expectedPage("", undefined, 10_000));
  });

  it("clamps limit to 10,000 (unobservable past the byte cap, as in nearcore)", () => {
    expect(view({ limit: 50_000 }).keys).toEqual(view({ limit: 10_000 }).keys);
  });

  it("treats afterKey alone as paginated and as an exclusive cursor", () => {
    const p = view({ afterKey: "a:0997" });
    expect(p.keys.slice(0, 3)).toEqual(["a:0998", "a:0999", p.keys[2]]);
    expect(p.keys[2]!.startsWith("b:")).toBe(true);
    expect(p).toMatchObject(expectedPage("", "a:0997", undefined));
    // A cursor between keys starts at the next key; one past the end gives an empty page.
    expect(view({ afterKey: "a:0997x", limit: 1 }).keys).toEqual(["a:0998"]);
    expect(view({ afterKey: "\xff\xff", limit: 3 })).toMatchObject({ keys: [], lastKey: undefined });
  });

  it("omits last_key when the page ends exactly at the last item", () => {
    const tail = model.slice(-5);
    const before = model[model.length - 6]!.key;
    expect(view({ afterKey: before, limit: 5 })).toMatchObject({ keys: tail.map((e) => e.key), lastKey: undefined });
    expect(view({ afterKey: before, limit: 4 }).lastKey).toBe(tail[3]!.key);
    expect(view({ afterKey: before, limit: 6 }).lastKey).toBeUndefined();
  });

  it("pages through the whole state with last_key as the next cursor", () => {
    for (const limit of [1_000, 333, undefined]) {
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const p = view({ ...(after !== undefined && { afterKey: after }), limit: limit ?? 10_000 });
        seen.push(...p.keys);
        pages++;
        if (p.lastKey === undefined) break;
        after = p.lastKey;
      }
      expect(seen).toEqual(model.map((e) => e.key));
      if (limit === undefined) expect(pages).toBe(2); // 50 KB cap: 1,270 + 831 items
    }
  });

  it("restricts to the prefix, also with a cursor inside it", () => {
    expect(view({ prefix: "c:" }).keys).toEqual(model.filter((e) => e.key.startsWith("c:")).map((e) => e.key));
    expect(view({ prefix: "c:" }).keys).toHaveLength(400);
    expect(view({ prefix: "\xff" }).keys).toHaveLength(100);
    expect(view({ prefix: "b:" }).keys.every((k) => k.startsWith("b:"))).toBe(true);
    const c = view({ prefix: "c:01", afterKey: "c:0100", limit: 3 });
    expect(c).toMatchObject({ keys: ["c:0101", "c:0102", "c:0103"], lastKey: "c:0103" });
    expect(view({ prefix: "c:018", afterKey: "c:018e", limit: 3 })).toMatchObject({ keys: ["c:018f"], lastKey: undefined });
    expect(view({ prefix: "zz" }).keys).toEqual([]);
    expect(view({ prefix: "STATE" }).keys).toEqual(["STATE"]);
  });

  it("rejects invalid limits and proofs on paginated requests", () => {
    expect(() => view({ limit: 0 })).toThrow(RangeError);
    expect(() => view({ limit: 1.5 })).toThrow(RangeError);
    expect(() => view({ limit: 1, includeProof: true })).toThrow(/pagination/);
  });
});

describe("viewState proofs", () => {
  const rootOf = (accountId: string) => parseCryptoHash(chain.at(block).stateRoot(chain.shardOf(accountId)));

  it.each(["", "a:", "b:", "\xff", "c:01", "zz", "STATE"])("verifies against the shard state root for prefix %j", (prefix) => {
    const r = view({ prefix, includeProof: true });
    expect(r.proof!.length).toBeGreaterThan(0);
    const result = verifyStateProof({ stateRoot: rootOf(KV_ACCOUNT), accountId: KV_ACCOUNT, prefix: u8(prefix), values: r.values, proof: r.proof! });
    expect(result.entries).toBe(r.values.length);
  });

  it("proves an account with no contract state empty, and is bound to its block's root", () => {
    const r = chain.at(block).contractState("alice.test.near", { prefix: new Uint8Array(), includeProof: true });
    expect(r.values).toEqual([]);
    expect(verifyStateProof({ stateRoot: rootOf("alice.test.near"), accountId: "alice.test.near", prefix: new Uint8Array(), values: [], proof: r.proof! }).entries).toBe(0);
    const kv = view({ prefix: "a:", includeProof: true });
    const otherShardRoot = rootOf("alice.test.near");
    expect(() => verifyStateProof({ stateRoot: otherShardRoot, accountId: KV_ACCOUNT, prefix: u8("a:"), values: kv.values, proof: kv.proof! })).toThrow(StateProofError);
  });
});
