import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kvFixtureEntries } from "../../src/chain/genesis/devGenesis.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { StateProofError, verifyStateProof } from "../../src/proof/index.js";
import type { Service } from "../../src/server/startService.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

const parseError = (message: string) => ({
  name: "REQUEST_VALIDATION_ERROR",
  cause: { name: "PARSE_ERROR", info: { error_message: message } },
  code: -32700,
  message: "Parse error",
  data: message,
});
const b64 = (bytes: Uint8Array | string) => Buffer.from(typeof bytes === "string" ? Buffer.from(bytes) : bytes).toString("base64");
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));
const compareBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The kv fixture as view_state must return it: raw-byte key order, base64. */
const kvSorted = kvFixtureEntries()
  .sort((a, b) => compareBytes(a.key, b.key))
  .map(({ key, value }) => ({ key: b64(key), value: b64(value) }));
/** Bytes a page budget counts per entry, as nearcore does: the full trie key (0x09 ‖ account ‖ ',' ‖ key) plus the value. */
const pageBytes = (values: { key: string; value: string }[], accountId = "kv.test.near") =>
  values.reduce((sum, v) => sum + 2 + accountId.length + unb64(v.key).length + unb64(v.value).length, 0);

let service: Service;
let url: string;
const view = (params: Record<string, unknown>) =>
  rpcResult(url, "query", { request_type: "view_state", finality: "final", prefix_base64: "", ...params });
const viewError = (params: Record<string, unknown>) =>
  rpcError(url, "query", { request_type: "view_state", finality: "final", prefix_base64: "", ...params });

describe("query view_state on the dev chain", () => {
  beforeAll(async () => {
    service = await startTestService({ retention: 3 });
    for (let i = 0; i < 3; i++) service.chain.produceBlock();
    url = service.rpcUrl;
  });
  afterAll(() => service.close());

  it("pages through the whole contract with an exclusive cursor, in raw byte order", async () => {
    const seen: { key: string; value: string }[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await view({ account_id: "kv.test.near", limit: 300, ...(after !== undefined && { after_key_base64: after }) });
      pages++;
      seen.push(...page.values);
      if (page.last_key === undefined) break;
      expect(page.values).toHaveLength(300);
      expect(page.last_key).toBe(page.values[page.values.length - 1].key);
      after = page.last_key;
    }
    expect(seen).toEqual(kvSorted);
    expect(pages).toBe(Math.ceil(kvSorted.length / 300));
    // Keys with bytes >= 0x80 sort after ASCII ones.
    expect(unb64(seen[seen.length - 1]!.key)[0]).toBe(0xff);
  });

  it("filters by prefix and omits last_key when the page holds the rest exactly", async () => {
    const page = await view({ account_id: "kv.test.near", prefix_base64: b64("a:"), limit: 1000 });
    expect(page.values).toEqual(kvSorted.filter((v) => Buffer.from(v.key, "base64").toString("latin1").startsWith("a:")));
    expect(page.values).toHaveLength(1000);
    expect(page).not.toHaveProperty("last_key");
    const binary = await view({ account_id: "kv.test.near", prefix_base64: b64(Uint8Array.of(0xff)), limit: 10 });
    expect(binary.values.map((v: { key: string }) => [...unb64(v.key)])).toEqual(Array.from({ length: 10 }, (_, i) => [0xff, i]));
    expect(binary.last_key).toBe(b64(Uint8Array.of(0xff, 9)));
  });

  it("continues after a cursor inside the prefix", async () => {
    const page = await view({ account_id: "kv.test.near", prefix_base64: b64("c:"), after_key_base64: b64("c:00fd"), limit: 3 });
    expect(page.values.map((v: { key: string }) => Buffer.from(v.key, "base64").toString())).toEqual(["c:00fe", "c:00ff", "c:0100"]);
    expect(page.last_key).toBe(b64("c:0100"));
  });

  it("cuts a page after about 50,000 bytes, overshooting by at most one entry", async () => {
    const page = await view({ account_id: "kv.test.near", limit: 10_000 });
    expect(page.values.length).toBeLessThan(kvSorted.length);
    expect(page.last_key).toBe(page.values[page.values.length - 1].key);
    expect(pageBytes(page.values)).toBeGreaterThanOrEqual(50_000);
    expect(pageBytes(page.values.slice(0, -1))).toBeLessThan(50_000);
    expect(page.values).toEqual(kvSorted.slice(0, page.values.length));
  });

  it("refuses an unpaginated read of a state over 50,000 bytes with TOO_LARGE_CONTRACT_STATE", async () => {
    const final = service.chain.blockByFinality("final");
    const { status, error } = await viewError({ account_id: "kv.test.near", prefix_base64: b64("a:") });
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "TOO_LARGE_CONTRACT_STATE", info: { contract_account_id: "kv.test.near", block_height: final.height, block_hash: final.hash } },
      code: -32000,
      message: "Server error",
      data: "State of contract kv.test.near is too large to be viewed",
    });
  });

  it("returns an empty state for an account without contract data", async () => {
    const final = service.chain.blockByFinality("final");
    expect(await view({ account_id: "alice.test.near" })).toEqual({ values: [], block_height: final.height, block_hash: final.hash });
  });

  it.each([
    ["invalid base64 prefix", { prefix_base64: "@@@@" }],
    ["unpadded base64 prefix", { prefix_base64: "YQ" }],
    ["invalid base64 cursor", { after_key_base64: "not base64!" }],
    ["a cursor outside the prefix", { prefix_base64: b64("a:"), after_key_base64: b64("b:") }],
    ["include_proof with limit", { include_proof: true, limit: 10 }],
    ["include_proof with a cursor", { include_proof: true, after_key_base64: b64("a:") }],
    ["a missing prefix_base64", { prefix_base64: undefined }],
  ])("rejects %s with PARSE_ERROR, HTTP 400", async (_name, params) => {
    const { status, error } = await viewError({ account_id: "kv.test.near", ...params });
    expect(status).toBe(400);
    expect(error).toMatchObject({ name: "REQUEST_VALIDATION_ERROR", code: -32700, cause: { name: "PARSE_ERROR" } });
    expect(error.data).toMatch(/^Failed parsing args: ./);
  });

  it("treats limit: null and after_key_base64: null as absent: the request is not paginated", async () => {
    const final = service.chain.blockByFinality("final");
    const tooLarge = {
      name: "TOO_LARGE_CONTRACT_STATE",
      info: { contract_account_id: "kv.test.near", block_height: final.height, block_hash: final.hash },
    };
    expect((await viewError({ account_id: "kv.test.near", limit: null })).error.cause).toEqual(tooLarge);
    expect((await viewError({ account_id: "kv.test.near", after_key_base64: null })).error.cause).toEqual(tooLarge);
    expect((await viewError({ account_id: "kv.test.near", limit: null, after_key_base64: null })).error.cause).toEqual(tooLarge);
  });

  it("accepts any uint32 limit and clamps the page like nearcore (10,000 entries, about 50,000 bytes)", async () => {
    const capped = await view({ account_id: "kv.test.near", limit: 10_000 });
    expect(await view({ account_id: "kv.test.near", limit: 50_000 })).toEqual(capped);
    expect(await view({ account_id: "kv.test.near", limit: 4_294_967_295 })).toEqual(capped);
    expect(capped.last_key).toBe(capped.values[capped.values.length - 1].key);
    const small = await view({ account_id: "kv.test.near", prefix_base64: b64("c:"), limit: 50_000 });
    expect(small.values).toEqual(kvSorted.filter((v) => Buffer.from(v.key, "base64").toString("latin1").startsWith("c:")));
    expect(small).not.toHaveProperty("last_key");
  });

  it.each([
    [0, "invalid value: integer `0`, expected a nonzero u32"],
    [-1, "invalid value: integer `-1`, expected a nonzero u32"],
    [4_294_967_296, "invalid value: integer `4294967296`, expected a nonzero u32"],
    [1.5, "invalid type: floating point `1.5`, expected a nonzero u32"],
    ["10", 'invalid type: string "10", expected a nonzero u32'],
    [true, "invalid type: boolean `true`, expected a nonzero u32"],
  ])("refuses limit %j with nearcore's serde message", async (limit, reason) => {
    const { status, error } = await viewError({ account_id: "kv.test.near", limit });
    expect(status).toBe(400);
    expect(error).toEqual(parseError(`Failed parsing args: ${reason}`));
  });

  it("names the rule a cursor or proof request broke", async () => {
    expect((await viewError({ account_id: "kv.test.near", prefix_base64: b64("a:"), after_key_base64: b64("b:") })).error.data).toBe(
      "Failed parsing args: after_key_base64 must start with prefix_base64",
    );
    expect((await viewError({ account_id: "kv.test.near", include_proof: true, limit: 1 })).error.data).toBe(
      "Failed parsing args: include_proof cannot be combined with pagination (after_key_base64 or limit)",
    );
  });

  it("answers UNKNOWN_ACCOUNT, and PARSE_ERROR with nearcore's serde text for an invalid id", async () => {
    const final = service.chain.blockByFinality("final");
    const at = { block_height: final.height, block_hash: final.hash };
    expect((await viewError({ account_id: "nobody.test.near" })).error.cause).toEqual({
      name: "UNKNOWN_ACCOUNT",
      info: { requested_account_id: "nobody.test.near", ...at },
    });
    const invalid = await viewError({ account_id: "Not_Valid!" });
    expect(invalid.status).toBe(400);
    expect(invalid.error).toEqual(parseError(`Failed parsing args: invalid value: "Not_Valid!", the Account ID contains an invalid character 'N' at index 0`));
  });

  it("answers GARBAGE_COLLECTED_BLOCK outside the retention window, and the archival listener still serves it", async () => {
    const genesis = service.chain.genesisBlock;
    expect(service.chain.head().height - genesis.height).toBeGreaterThanOrEqual(3);
    const params = { request_type: "view_state", block_id: genesis.height, account_id: "kv.test.near", prefix_base64: "", limit: 1 };
    const { status, error } = await rpcError(url, "query", params);
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "GARBAGE_COLLECTED_BLOCK", info: { block_height: genesis.height, block_hash: genesis.hash } },
      code: -32000,
      message: "Server error",
      data: `The data for block #${genesis.height} is garbage collected on this node, use an archival node to fetch historical data`,
    });
    const archived = await rpcResult(service.archivalUrl, "query", params);
    expect(archived.values).toEqual(kvSorted.slice(0, 1));
    expect(archived.block_hash).toBe(genesis.hash);
  });

  it("reads each block's own state after later blocks change it", async () => {
    const before = service.chain.head();
    service.chain.producer.stage([{ type: "data", accountId: "kv.test.near", key: new TextEncoder().encode("STATE"), value: new TextEncoder().encode("v2") }]);
    const after = service.chain.produceBlock();
    const read = (block_id: number) =>
      rpcResult(url, "query", { request_type: "view_state", block_id, account_id: "kv.test.near", prefix_base64: b64("STATE"), limit: 1 });
    expect((await read(before.height)).values).toEqual([{ key: b64("STATE"), value: b64("shardkit kv fixture") }]);
    expect((await read(after.height)).values).toEqual([{ key: b64("STATE"), value: b64("v2") }]);
  });
});

describe("query view_state proofs", () => {
  const entries = [
    { key: Uint8Array.of(0x00), value: Uint8Array.of(1, 2, 3) },
    { key: new TextEncoder().encode("count"), value: new TextEncoder().encode("42") },
    { key: new TextEncoder().encode("counter"), value: Uint8Array.of() },
    { key: Uint8Array.of(0x80, 0xff), value: new TextEncoder().encode("high") },
  ];

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "shardkit-proof-"));
    const genesisFile = join(dir, "genesis.json");
    const account = (id: string) => ({ Account: { account_id: id, account: { amount: "1000", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 } } });
    const records = [
      account("small.test.near"),
      account("empty.test.near"),
      ...entries.map((e) => ({ Data: { account_id: "small.test.near", data_key: b64(e.key), value: b64(e.value) } })),
    ];
    await writeFile(genesisFile, JSON.stringify({ chain_id: "proof-test", genesis_height: 100, records }));
    service = await startTestService({ chain: { genesisFile, blockTimeMs: 0 } });
    for (let i = 0; i < 4; i++) service.chain.produceBlock();
    url = service.rpcUrl;
  });
  afterAll(() => service.close());

  /** The post-state root of `height` on the account's shard: the next block's chunk prev_state_root. */
  async function stateRootAfter(height: number, accountId: string): Promise<Uint8Array> {
    const next = await rpcResult(url, "block", { block_id: height + 1 });
    const chunk = next.chunks.find((c: { shard_id: number }) => c.shard_id === service.chain.shardOf(accountId));
    return base58Decode(chunk.prev_state_root);
  }

  async function provenRead(accountId: string, prefix: Uint8Array) {
    const page = await view({ account_id: accountId, prefix_base64: b64(prefix), include_proof: true });
    return {
      page,
      stateRoot: await stateRootAfter(page.block_height, accountId),
      values: page.values.map((v: { key: string; value: string }) => ({ key: unb64(v.key), value: unb64(v.value) })),
      proof: (page.proof ?? []).map(unb64),
    };
  }

  it("returns a proof that verifies against the block's state root", async () => {
    const { page, stateRoot, values, proof } = await provenRead("small.test.near", new Uint8Array());
    expect(values).toEqual([...entries].sort((a, b) => compareBytes(a.key, b.key)));
    expect(proof.length).toBeGreaterThan(0);
    expect(verifyStateProof({ stateRoot, accountId: "small.test.near", prefix: new Uint8Array(), values, proof })).toEqual({
      entries: 4,
      nodes: proof.length,
    });
    expect(page).not.toHaveProperty("last_key");
  });

  it("returns the whole state with a proof when limit and after_key_base64 are null (not paginated)", async () => {
    const plain = await provenRead("small.test.near", new Uint8Array());
    const page = await view({ account_id: "small.test.near", include_proof: true, limit: null, after_key_base64: null });
    expect(page).toEqual(plain.page);
    expect(page).not.toHaveProperty("last_key");
  });

  it("proves a prefix subset and an empty state", async () => {
    const prefix = new TextEncoder().encode("count");
    const subset = await provenRead("small.test.near", prefix);
    expect(subset.values.map((v: { key: Uint8Array }) => Buffer.from(v.key).toString())).toEqual(["count", "counter"]);
    verifyStateProof({ stateRoot: subset.stateRoot, accountId: "small.test.near", prefix, values: subset.values, proof: subset.proof });
    const empty = await provenRead("empty.test.near", new Uint8Array());
    expect(empty.values).toEqual([]);
    verifyStateProof({ stateRoot: empty.stateRoot, accountId: "empty.test.near", prefix: new Uint8Array(), values: [], proof: empty.proof });
  });

  it("rejects a tampered value, a dropped value, a tampered proof node and a wrong root", async () => {
    const { stateRoot, values, proof } = await provenRead("small.test.near", new Uint8Array());
    const base = { stateRoot, accountId: "small.test.near", prefix: new Uint8Array(), values, proof };
    const tamperedValue = values.map((v: { key: Uint8Array; value: Uint8Array }, i: number) => (i === 1 ? { key: v.key, value: Uint8Array.of(9) } : v));
    expect(() => verifyStateProof({ ...base, values: tamperedValue })).toThrow(StateProofError);
    expect(() => verifyStateProof({ ...base, values: values.slice(1) })).toThrow(StateProofError);
    const tamperedNode = proof.map((node: Uint8Array, i: number) => {
      if (i !== proof.length - 1) return node;
      const copy = Uint8Array.from(node);
      copy[copy.length - 1]! ^= 1;
      return copy;
    });
    expect(() => verifyStateProof({ ...base, proof: tamperedNode })).toThrow(StateProofError);
    expect(() => verifyStateProof({ ...base, proof: proof.slice(0, -1) })).toThrow(StateProofError);
    const wrongRoot = Uint8Array.from(stateRoot);
    wrongRoot[0]! ^= 1;
    expect(() => verifyStateProof({ ...base, stateRoot: wrongRoot })).toThrow(StateProofError);
  });
});
