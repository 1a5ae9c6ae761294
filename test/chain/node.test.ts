import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Chain, UnknownAccountError, type Block } from "../../src/chain/node.js";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { combineHash } from "../../src/chain/blocks/merkle.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";

const T0 = 1_700_000_000_000;
const open = (opts: Parameters<typeof Chain.open>[0] = {}) => Chain.open({ blockTimeMs: 0, now: () => T0, ...opts });
const utf8 = (s: string) => new TextEncoder().encode(s);

const HEADER_FIELDS = [
  "height", "prev_height", "epoch_id", "next_epoch_id", "hash", "prev_hash", "prev_state_root", "block_body_hash",
  "chunk_receipts_root", "chunk_headers_root", "chunk_tx_root", "outcome_root", "chunks_included", "challenges_root",
  "timestamp", "timestamp_nanosec", "random_value", "validator_proposals", "chunk_mask", "gas_price", "block_ordinal",
  "rent_paid", "validator_reward", "total_supply", "challenges_result", "last_final_block", "last_ds_final_block",
  "next_bp_hash", "block_merkle_root", "epoch_sync_data_hash", "approvals", "signature", "latest_protocol_version",
  "chunk_endorsements",
];
const CHUNK_FIELDS = [
  "chunk_hash", "prev_block_hash", "outcome_root", "prev_state_root", "encoded_merkle_root", "encoded_length",
  "height_created", "height_included", "shard_id", "gas_used", "gas_limit", "rent_paid", "validator_reward",
  "balance_burnt", "outgoing_receipts_root", "tx_root", "validator_proposals", "signature", "congestion_info",
  "bandwidth_requests",
];

function verifySignature(signature: string, message: Uint8Array, publicKey: string): boolean {
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), base58Decode(publicKey.slice(8))]);
  return verify(null, message, createPublicKey({ key: spki, format: "der", type: "spki" }), base58Decode(signature.slice(8)));
}

describe("Chain blocks", () => {
  it("builds a nearcore-shaped genesis block with one chunk per shard", async () => {
    const chain = await open();
    const g = chain.genesisBlock;
    expect(g.height).toBe(0);
    expect(chain.head()).toBe(g);
    expect(Object.keys(g.view)).toEqual(["author", "header", "chunks"]);
    expect(Object.keys(g.view.header).sort()).toEqual([...HEADER_FIELDS].sort());
    expect(g.view.chunks.map((c) => Object.keys(c).sort())).toEqual(g.view.chunks.map(() => [...CHUNK_FIELDS].sort()));
    const h = g.view.header;
    expect(h.hash).toBe(g.hash);
    expect(h.prev_hash).toBe("11111111111111111111111111111111");
    expect(h.epoch_id).toBe("11111111111111111111111111111111");
    expect(h.next_epoch_id).toBe("11111111111111111111111111111111");
    expect(h.last_final_block).toBe("11111111111111111111111111111111");
    expect(h.signature).toBe(`ed25519:${"1".repeat(64)}`);
    expect(h.approvals).toEqual([]);
    expect(h.gas_price).toBe("100000000");
    expect(h.block_ordinal).toBe(1);
    expect(h.epoch_sync_data_hash).toBeNull();
    expect(h.timestamp_nanosec).toBe("1700000000000000000");
    expect(JSON.stringify(h.timestamp)).toBe(h.timestamp_nanosec);
    expect(h.chunk_mask).toEqual([true, true, true, true]);
    expect(g.view.chunks.map((c) => c.shard_id)).toEqual([0, 1, 2, 3]);
    for (const c of g.view.chunks) {
      expect(c.prev_state_root).toBe(chain.at(g).stateRoot(c.shard_id)); // genesis chunks carry the genesis state
      expect(c.gas_limit).toBe(1e15);
      expect(c.height_included).toBe(0);
      expect(c.bandwidth_requests).toBeNull();
      expect(c.congestion_info).toEqual({ allowed_shard: c.shard_id, buffered_receipts_gas: "0", delayed_receipts_gas: "0", receipt_bytes: 0 });
    }
    expect(g.view.author).toBe("test.near");
  });

  it("links blocks, signs them with the producer's ed25519 key and keeps a block merkle root", async () => {
    const chain = await open();
    const g = chain.genesisBlock;
    const b1 = chain.produceBlock();
    const b2 = chain.produceBlock();
    expect(b1.view.header.prev_hash).toBe(g.hash);
    expect(b1.view.header.prev_height).toBe(0);
    expect(b2.view.header.prev_hash).toBe(b1.hash);
    expect(b2.view.header.block_ordinal).toBe(3);
    expect(b1.view.header.block_merkle_root).toBe(g.hash); // one leaf: the root is the leaf
    expect(b2.view.header.block_merkle_root).toBe(base58Encode(combineHash(g.hashBytes, b1.hashBytes)));
    const producer = devKeyPair("test.near").publicKeyString;
    expect(chain.blockProducer).toEqual({ accountId: "test.near", publicKey: producer });
    expect(verifySignature(b2.view.header.signature, b2.hashBytes, producer)).toBe(true);
    expect(verifySignature(b2.view.header.signature, b1.hashBytes, producer)).toBe(false);
    for (const c of b2.view.chunks) expect(verifySignature(c.signature, base58Decode(c.chunk_hash), producer)).toBe(true);
    expect(b2.view.header.approvals).toHaveLength(1);
    expect(new Set([g.hash, b1.hash, b2.hash]).size).toBe(3);
    expect(b1.view.chunks.every((c) => c.prev_block_hash === g.hash && c.height_created === 1)).toBe(true);
  });

  it("keeps timestamps strictly increasing on whole milliseconds even when the clock stands still", async () => {
    const chain = await open();
    const blocks = [chain.genesisBlock, chain.produceBlock(), chain.produceBlock()];
    expect(blocks.map((b) => b.timestampNs)).toEqual([1700000000000000000n, 1700000000001000000n, 1700000000002000000n]);
    for (const b of blocks) expect(JSON.stringify(b.view.header.timestamp)).toBe(b.view.header.timestamp_nanosec);
  });

  it("finds blocks by height, hash, chunk hash and finality (head, head-1, head-2, clamped to genesis)", async () => {
    const chain = await open();
    const g = chain.genesisBlock;
    const heights = (c: Chain) => (["optimistic", "near-final", "final"] as const).map((f) => c.blockByFinality(f).height);
    expect(heights(chain)).toEqual([0, 0, 0]);
    chain.produceBlock();
    expect(heights(chain)).toEqual([1, 0, 0]);
    for (let i = 0; i < 4; i++) chain.produceBlock();
    expect(heights(chain)).toEqual([5, 4, 3]);
    const head = chain.head();
    expect(head.view.header.last_ds_final_block).toBe(chain.blockByFinality("near-final").hash);
    expect(head.view.header.last_final_block).toBe(chain.blockByFinality("final").hash);
    expect(chain.blockByHeight(1)?.view.header.last_final_block).toBe(g.hash);
    expect(chain.blockByHeight(3)?.height).toBe(3);
    expect(chain.blockByHeight(6)).toBeUndefined();
    expect(chain.blockByHeight(-1)).toBeUndefined();
    expect(chain.blockByHeight(1.5)).toBeUndefined();
    expect(chain.blockByHash(head.hash)).toBe(head);
    expect(chain.blockByHash("11111111111111111111111111111111")).toBeUndefined();
    const chunk = head.view.chunks[2]!;
    expect(chain.chunkByHash(chunk.chunk_hash)).toEqual({ block: head, shardIndex: 2 });
    expect(() => chain.blockByFinality("latest" as never)).toThrow(/unknown finality/);
  });

  it("follows nearcore's chunk semantics: prev_state_root is the state before the chunk", async () => {
    const chain = await open();
    const alice = "alice.test.near";
    const shard = chain.shardOf(alice);
    const b1 = chain.produceBlock();
    chain.producer.stage([{ type: "account", accountId: alice, account: { amount: 1n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 182 } }]);
    const b2 = chain.produceBlock();
    const b3 = chain.produceBlock();
    // b2 applied the change: its chunk still shows the old root, the next block's the new one.
    expect(b2.view.chunks[shard]!.prev_state_root).toBe(chain.at(b1).stateRoot(shard));
    expect(b3.view.chunks[shard]!.prev_state_root).toBe(chain.at(b2).stateRoot(shard));
    expect(chain.at(b2).stateRoot(shard)).not.toBe(chain.at(b1).stateRoot(shard));
    // Other shards did not change.
    for (const s of [0, 1, 2, 3].filter((x) => x !== shard)) expect(chain.at(b2).stateRoot(s)).toBe(chain.at(b1).stateRoot(s));
    expect(() => chain.at(b2).stateRoot(9)).toThrow(/unknown shard id 9/);
  });
});

describe("Chain reads at a block", () => {
  it("see each block's post-state: older blocks are unchanged by later writes", async () => {
    const chain = await open();
    const g = chain.genesisBlock;
    const alice = "alice.test.near";
    const newKey = devKeyPair("new-key").publicKeyString;
    const before = chain.at(g).account(alice)!;
    chain.producer.stage([
      { type: "account", accountId: alice, account: { amount: 42n, locked: 1n, codeHash: new Uint8Array(32), storageUsage: 264 } },
      { type: "accessKey", accountId: alice, publicKey: newKey, accessKey: { nonce: 5n, permission: { FunctionCall: { allowance: null, receiverId: "kv.test.near", methodNames: ["get"] } } } },
      { type: "data", accountId: "kv.test.near", key: utf8("a:0000"), value: null },
      { type: "data", accountId: "kv.test.near", key: utf8("new"), value: utf8("v") },
      { type: "code", accountId: "bob.test.near", code: Uint8Array.of(0, 97, 115, 109) },
    ]);
    const b1 = chain.produceBlock();
    const b2 = chain.produceBlock(); // nothing staged: same state as b1
    expect(chain.at(b1).account(alice)).toEqual({ amount: 42n, locked: 1n, codeHash: "11111111111111111111111111111111", storageUsage: 264 });
    expect(chain.at(g).account(alice)).toEqual(before);
    expect(chain.at(b2).account(alice)).toEqual(chain.at(b1).account(alice));
    expect(chain.at(g).accessKeys(alice)).toHaveLength(1);
    expect(chain.at(b1).accessKeys(alice).map((k) => k.publicKey).sort()).toEqual([chain.devAccounts[1]!.publicKey, newKey].sort());
    expect(chain.at(b1).accessKey(alice, newKey)?.nonce).toBe(5n);
    expect(chain.at(g).accessKey(alice, newKey)).toBeUndefined();
    const kv = (b: Block, key: string) => chain.at(b).contractState("kv.test.near", { prefix: utf8(key) }).values.map((e) => Buffer.from(e.key).toString());
    expect(kv(g, "a:0000")).toEqual(["a:0000"]);
    expect(kv(b1, "a:0000")).toEqual([]);
    expect(kv(b1, "new")).toEqual(["new"]);
    expect(kv(g, "new")).toEqual([]);
    expect(chain.at(g).codeLength("bob.test.near")).toBe(0);
    expect(chain.at(b1).codeLength("bob.test.near")).toBe(4);
    expect(chain.at(g).code("bob.test.near")).toBeUndefined();
  });

  it("answers undefined for unknown accounts and keys, refuses an unknown account's contract state, and rejects malformed keys", async () => {
    const chain = await open();
    const g = chain.genesisBlock;
    expect(chain.at(g).account("nobody.near")).toBeUndefined();
    expect(chain.at(g).accessKeys("nobody.near")).toEqual([]);
    expect(chain.at(g).accessKey("alice.test.near", devKeyPair("x").publicKeyString)).toBeUndefined();
    expect(() => chain.at(g).accessKey("alice.test.near", "ed25519:nope")).toThrow(/public key/);
    expect(() => chain.at(g).contractState("nobody.near", { prefix: new Uint8Array() })).toThrow(UnknownAccountError);
  });

  it("last write to a key within one block wins", async () => {
    const chain = await open();
    chain.producer.stage([
      { type: "data", accountId: "kv.test.near", key: utf8("z"), value: utf8("1") },
      { type: "data", accountId: "kv.test.near", key: utf8("z"), value: utf8("2") },
      { type: "data", accountId: "kv.test.near", key: utf8("y"), value: utf8("1") },
      { type: "data", accountId: "kv.test.near", key: utf8("y"), value: null },
    ]);
    const b = chain.produceBlock();
    const page = chain.at(b).contractState("kv.test.near", { prefix: utf8("z") }).values;
    expect(page.map((e) => Buffer.from(e.value).toString())).toEqual(["2"]);
    expect(chain.at(b).contractState("kv.test.near", { prefix: utf8("y") }).values).toEqual([]);
  });
});

describe("Chain timed production", () => {
  it("produces blocks on a timer, notifies listeners and stops cleanly", async () => {
    const chain = await Chain.open({ blockTimeMs: 10 });
    const seen: number[] = [];
    const off = chain.onBlock((b) => seen.push(b.height));
    chain.start();
    chain.start(); // idempotent
    expect(chain.running).toBe(true);
    // By count, not by a fixed sleep (a loaded machine runs fewer timer ticks in a given time).
    while (seen.length < 3) await new Promise((r) => setTimeout(r, 10));
    chain.stop();
    chain.stop();
    expect(chain.running).toBe(false);
    const height = chain.head().height;
    expect(height).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(Array.from({ length: height }, (_, i) => i + 1));
    await new Promise((r) => setTimeout(r, 40));
    expect(chain.head().height).toBe(height);
    off();
    chain.produceBlock();
    expect(seen).toHaveLength(height);
  });

  it("produces nothing while idle after start() when blockTimeMs is 0 (on demand)", async () => {
    const chain = await open();
    chain.start();
    expect(chain.running).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(chain.head().height).toBe(0);
    chain.stop();
    expect(chain.running).toBe(false);
  });

  it("can be stopped from a listener", async () => {
    const chain = await Chain.open({ blockTimeMs: 5 });
    chain.onBlock(() => chain.stop());
    chain.start();
    await new Promise((r) => setTimeout(r, 60));
    expect(chain.head().height).toBe(1);
    expect(chain.running).toBe(false);
  });

  it("validates options", async () => {
    await expect(Chain.open({ blockTimeMs: -1 })).rejects.toThrow(/blockTimeMs/);
    await expect(Chain.open({ shards: 3, boundaryAccounts: ["m"] })).rejects.toThrow(/make 2 shards, not 3/);
    const two = await open({ boundaryAccounts: ["m"] });
    expect(two.genesisBlock.view.chunks).toHaveLength(2);
    expect(two.shardOf("alice.test.near")).toBe(0);
    expect(two.shardOf("test.near")).toBe(1);
    const one = await open({ shards: 1 });
    expect(one.at(one.genesisBlock).account("kv.test.near")?.amount).toBe(10n ** 26n);
  });
});
