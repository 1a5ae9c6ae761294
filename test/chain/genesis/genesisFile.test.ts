import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GenesisError } from "../../../src/chain/genesis/GenesisError.js";
import { GenesisScanner, scanGenesisFile } from "../../../src/chain/genesis/scanGenesisFile.js";
import { Chain } from "../../../src/chain/node.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { formatCryptoHash } from "../../../src/chain/primitives/cryptoHash.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";

const dir = mkdtempSync(join(tmpdir(), "shardkit-genesis-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileNo = 0;
function writeGenesis(text: string): string {
  const path = join(dir, `g${fileNo++}.json`);
  writeFileSync(path, text);
  return path;
}

const b64 = (s: string | Uint8Array) => Buffer.from(typeof s === "string" ? Buffer.from(s, "latin1") : s).toString("base64");
const CODE = "\0asm\x01\0\0\0";
const alicePk = devKeyPair("alice.near").publicKeyString;
const bobPk = devKeyPair("bob.near").publicKeyString;

const records = [
  { Account: { account_id: "alice.near", account: { amount: "1000000000000000000000000", locked: "5", code_hash: "11111111111111111111111111111111", storage_usage: 999, version: "V1" } } },
  { AccessKey: { account_id: "alice.near", public_key: alicePk, access_key: { nonce: 7, permission: "FullAccess" } } },
  {
    AccessKey: {
      account_id: "alice.near",
      public_key: bobPk,
      access_key: { nonce: 0, permission: { FunctionCall: { allowance: "1000", receiver_id: "app.near", method_names: ['a"b', "é"] } } },
    },
  },
  { Data: { account_id: "alice.near", data_key: b64("k1"), value: b64("hello") } },
  { Data: { account_id: "alice.near", data_key: b64("\xff\x00"), value: "" } },
  { Contract: { account_id: "alice.near", code: b64(CODE) } },
  { Account: { account_id: "zed.near", account: { amount: "3", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 } } },
];

// Fields before and after `records`, odd whitespace, and strings full of JSON syntax.
const GENESIS = `{
  "chain_id" : "unit-net",
  "genesis_time": "2024-02-03T04:05:06.123456789Z",
  "weird": {"a": "}{][\\\\\\"", "b": [1, {"c": null}]},
  "genesis_height": 100,
  "records": [
    ${records.map((r) => JSON.stringify(r)).join(",\n    ")}
  ],
  "min_gas_price": "5000",
  "protocol_version": 77,
  "shard_layout": {"V2": {"boundary_accounts": ["m"], "shard_ids": [5, 2], "version": 3}},
  "validators": [{"account_id": "zed.near", "public_key": "${bobPk}", "amount": "1"}],
  "epoch_length": 3,
  "total_supply": "123"
}
`;

describe("genesis streaming scanner", () => {
  it("cuts out the same records and fields at any chunk size (boundaries inside strings, escapes and numbers)", async () => {
    const path = writeGenesis(GENESIS);
    const runs: { fields: [string, unknown][]; records: unknown[] }[] = [];
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      const fields: [string, unknown][] = [];
      const got: unknown[] = [];
      const count = await scanGenesisFile(path, { field: (n, v) => fields.push([n, v]), record: (i, v) => got.push([i, v]) }, size);
      expect(count).toBe(records.length);
      runs.push({ fields, records: got });
    }
    for (const run of runs) expect(run).toEqual(runs[0]);
    expect(runs[0]!.records).toEqual(records.map((r, i) => [i, r]));
    expect(new Map(runs[0]!.fields).get("weird")).toEqual({ a: '}{][\\"', b: [1, { c: null }] });
    expect(new Map(runs[0]!.fields).get("epoch_length")).toBe(3);
  });

  it.each([
    ["[]", /expected '\{'/],
    ['{"records": {}}', /must be an array/],
    ['{"records": [1]}', /record #0: a record must be a JSON object/],
    ['{"records": [{"Data": {}}, {"a": tru}]}', /record #1: not valid JSON/],
    ['{"a": 1', /ends early/],
    ['{"a": 1} x', /after the top-level object/],
    ['{"a" 1}', /expected ':'/],
    ['{"a": 1 "b": 2}', /field "a" is not valid JSON/],
    ['{"a": {} "b": 2}', /expected ',' or '\}'/],
    ['{"records": [{} {}]}', /expected ',' or '\]'/],
    ['{"a": nope}', /field "a" is not valid JSON/],
  ])("rejects %j", (text, message) => {
    const scanner = new GenesisScanner({ field: () => undefined, record: () => undefined });
    expect(() => {
      scanner.feed(Buffer.from(text));
      scanner.end();
    }).toThrow(message);
  });
});

describe("genesis file → chain", () => {
  it("honours the top-level fields and the shard layout", async () => {
    const chain = await Chain.open({ genesisFile: writeGenesis(GENESIS), blockTimeMs: 0 });
    const g = chain.genesisBlock;
    expect(chain.chainId).toBe("unit-net");
    expect(g.height).toBe(100);
    expect(g.timestampNs).toBe(1706933106123456789n);
    expect(g.view.header.timestamp_nanosec).toBe("1706933106123456789");
    expect(g.view.header.gas_price).toBe("5000");
    expect(g.view.header.latest_protocol_version).toBe(77);
    expect(chain.protocolVersion).toBe(77);
    expect(g.view.author).toBe("zed.near");
    expect(chain.blockProducer.accountId).toBe("zed.near");
    expect(chain.devAccounts).toEqual([]);
    // total_supply is recomputed from the records (the file's "123" is ignored).
    expect(g.view.header.total_supply).toBe((10n ** 24n + 5n + 3n).toString());
    expect(chain.shardLayout.shardIds).toEqual([5, 2]);
    expect(chain.shardOf("alice.near")).toBe(5);
    expect(chain.shardOf("zed.near")).toBe(2);
    expect(g.view.chunks.map((c) => c.shard_id)).toEqual([5, 2]);
    const b1 = chain.produceBlock();
    expect(b1.height).toBe(101);
    expect(b1.view.header.epoch_id).toBe("11111111111111111111111111111111");
    chain.produceBlock();
    chain.produceBlock();
    const b4 = chain.produceBlock(); // epoch_length 3: heights 101..103 are epoch 0
    expect(b4.view.header.epoch_id).toBe(g.hash);
    expect(b4.view.header.next_epoch_id).toBe(chain.blockByHeight(103)!.hash);
  });

  it("recomputes storage usage and the code hash from the records", async () => {
    const chain = await Chain.open({ genesisFile: writeGenesis(GENESIS), blockTimeMs: 0 });
    const g = chain.genesisBlock;
    // account 100 + full-access key (33 + 9 + 40) + function-call key (33 + 55 + 40)
    // + data (2 + 5 + 40) + (2 + 0 + 40) + code (8)
    expect(chain.at(g).account("alice.near")).toEqual({
      amount: 10n ** 24n,
      locked: 5n,
      codeHash: formatCryptoHash(sha256(Buffer.from(CODE, "latin1"))),
      storageUsage: 100 + 82 + 128 + 47 + 42 + 8,
    });
    expect(chain.at(g).account("zed.near")?.storageUsage).toBe(100);
    expect(chain.at(g).codeLength("alice.near")).toBe(8);
    expect(chain.at(g).code("alice.near")).toEqual(new Uint8Array(Buffer.from(CODE, "latin1")));
    expect(chain.at(g).accessKey("alice.near", alicePk)).toEqual({ nonce: 7n, permission: "FullAccess" });
    expect(chain.at(g).accessKey("alice.near", bobPk)).toEqual({
      nonce: 0n,
      permission: { FunctionCall: { allowance: 1000n, receiverId: "app.near", methodNames: ['a"b', "é"] } },
    });
    const state = chain.at(g).contractState("alice.near", { prefix: new Uint8Array() });
    expect(state.values.map((e) => [Buffer.from(e.key).toString("latin1"), Buffer.from(e.value).toString("latin1")])).toEqual([
      ["k1", "hello"],
      ["\xff\x00", ""],
    ]);
  });

  const header = '{"chain_id": "x", "records": [';
  const acct = (id: string) => JSON.stringify({ Account: { account_id: id, account: { amount: "1", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 } } });
  const data = (id: string, k: string, v = "") => JSON.stringify({ Data: { account_id: id, data_key: k, value: v } });

  it.each([
    ["bad base64", [acct("aa.near"), data("aa.near", "QQ")], /genesis record #1: Data.data_key: base64 length 2/],
    ["bad account id", [acct("Bad")], /record #0: Account.account_id "Bad" is not a valid account id/],
    ["unsupported kind", [acct("aa.near"), '{"PostponedReceipt": {"account_id": "aa.near"}}'], /record #1: unsupported record kind "PostponedReceipt"/],
    ["two kinds", ['{"Account": {}, "Data": {}}'], /record #0: a record must have exactly one kind/],
    ["bad amount", ['{"Account": {"account_id": "aa.near", "account": {"amount": "1e3"}}}'], /record #0: Account.account.amount must be a non-negative decimal/],
    ["bad public key", ['{"AccessKey": {"account_id": "aa.near", "public_key": "ed25519:xyz", "access_key": {"nonce": 0, "permission": "FullAccess"}}}'], /record #0: AccessKey.public_key/],
    ["bad permission", ['{"AccessKey": {"account_id": "aa.near", "public_key": "' + alicePk + '", "access_key": {"nonce": 0, "permission": "Root"}}}'], /record #0: AccessKey.access_key.permission/],
    ["data without account", [acct("aa.near"), data("bb.near", "QQ==")], /record #1: Data record for bb.near, which has no Account record/],
    ["duplicate account", [acct("aa.near"), acct("aa.near")], /record #1: duplicate Account record for aa.near \(first at #0\)/],
    ["duplicate data key", [acct("aa.near"), data("aa.near", "QQ=="), data("aa.near", "QQ==", "QQ==")], /record #2: writes the same state key as record #1/],
  ])("rejects a file with %s, naming the record", async (_name, recs, message) => {
    const path = writeGenesis(`${header}${recs.join(",")}]}`);
    await expect(Chain.open({ genesisFile: path, blockTimeMs: 0 })).rejects.toThrow(GenesisError);
    await expect(Chain.open({ genesisFile: path, blockTimeMs: 0 })).rejects.toThrow(message);
  });

  it("rejects bad top-level fields", async () => {
    await expect(Chain.open({ genesisFile: writeGenesis('{"genesis_time": "yesterday", "records": []}') })).rejects.toThrow(/genesis_time/);
    await expect(Chain.open({ genesisFile: writeGenesis('{"genesis_height": -1, "records": []}') })).rejects.toThrow(/genesis_height/);
    await expect(Chain.open({ genesisFile: writeGenesis('{"protocol_version": 88, "records": []}') })).rejects.toThrow(
      "genesis protocol_version 88 is newer than shardkit runs (at most 87)",
    );
    await expect(Chain.open({ genesisFile: writeGenesis('{"shard_layout": {"V1": {"boundary_accounts": ["b", "a"]}}, "records": []}') })).rejects.toThrow(/strictly increasing/);
  });

  it("honours a V0 (hash-routed) layout and lets explicit options win over the file", async () => {
    const path = writeGenesis(`{"shard_layout": {"V0": {"num_shards": 3, "version": 0}}, "records": [${acct("aa.near")}]}`);
    const hashed = await Chain.open({ genesisFile: path, blockTimeMs: 0 });
    expect(hashed.shardLayout.routing).toBe("hash");
    expect(hashed.shardLayout.numShards).toBe(3);
    expect(hashed.at(hashed.genesisBlock).account("aa.near")?.amount).toBe(1n);
    const explicit = await Chain.open({ genesisFile: path, blockTimeMs: 0, shards: 2, chainId: "override" });
    expect(explicit.shardLayout.boundaryAccounts).toEqual(["b"]);
    expect(explicit.chainId).toBe("override");
  });
});
