import { NearRpcClient, chunk as chunkMethod, enableValidation } from "@near-js/jsonrpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merkleRoot } from "../../src/chain/blocks/merkle.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { formatCryptoHash } from "../../src/chain/primitives/cryptoHash.js";
import type { ChunkBodies } from "../../src/chain/views/ChunkBodies.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, signedTx } from "../chain/runtime/helpers.js";
import { rpc, rpcResult, startTestService } from "./harness.js";


let service: Service;
let txHash: string;
let txHeight: number;
beforeAll(async () => {
  service = await startTestService({ retention: 5, chain: { blockTimeMs: 0 } });
  service.chain.produceBlock();
  txHash = service.chain.submitTransaction(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: 7n }])).hash;
  txHeight = service.chain.produceBlock().height; // alice's chunk: the transaction, out goes the receipt to bob
  service.chain.produceBlock(); // bob's chunk runs it
});
afterAll(() => service.close());

const rootOf = (hashes: string[]) => formatCryptoHash(merkleRoot(hashes.map((h) => base58Decode(h))));

describe("chunk", () => {
  it("lists the transactions a chunk includes; the next chunk of its shard lists the receipt it sent (prev_outgoing_receipts)", async () => {
    const chain = service.chain;
    const block = chain.blockByHeight(txHeight)!;
    const aliceShard = chain.shardOf(ALICE);
    const aliceIndex = chain.shardLayout.indexOfShardId(aliceShard)!;
    const header = block.view.chunks[aliceIndex]!;
    const status = await rpcResult(service.rpcUrl, "EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: ALICE, wait_until: "FINAL" });
    const receiptId: string = status.transaction_outcome.outcome.receipt_ids[0];
    const expected = { author: "test.near", header, transactions: [status.transaction], receipts: [] };
    expect(await rpcResult(service.rpcUrl, "chunk", { chunk_id: header.chunk_hash })).toEqual(expected);
    for (const params of [{ block_id: txHeight, shard_id: aliceShard }, { block_id: block.hash, shard_id: aliceShard }, [header.chunk_hash], [[txHeight, aliceShard]]]) {
      expect(await rpcResult(service.rpcUrl, "chunk", params)).toEqual(expected);
    }
    const next = chain.blockByHeight(txHeight + 1)!.view.chunks[aliceIndex]!;
    const sent = await rpcResult(service.rpcUrl, "chunk", { chunk_id: next.chunk_hash });
    expect(sent.receipts).toEqual([await rpcResult(service.rpcUrl, "EXPERIMENTAL_receipt", { receipt_id: receiptId })]);
    expect(sent.receipts[0].receiver_id).toBe(BOB);
    // The header commits to the transactions it includes and to the receipts it sends (listed by the next chunk: a difference).
    expect(rootOf([txHash])).toBe(header.tx_root);
    expect(rootOf([receiptId])).toBe(header.outgoing_receipts_root);
  });

  it("answers empty lists for chunks that carried nothing; the chunk after bob's that ran the receipt carries its gas refund", async () => {
    const chain = service.chain;
    const status = await rpcResult(service.rpcUrl, "EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: ALICE, wait_until: "FINAL" });
    // NEP-642: the receipt's gas was bought at 10^9 and burnt at 10^8, so the surplus goes back to alice.
    const refundId: string = status.receipts_outcome[0].outcome.receipt_ids[0];
    const sentBy = (height: number, shardId: number) =>
      (height === txHeight + 1 && shardId === chain.shardOf(ALICE)) || (height === txHeight + 2 && shardId === chain.shardOf(BOB));
    for (const height of [txHeight, txHeight + 1, txHeight + 2]) {
      for (const header of chain.blockByHeight(height)!.view.chunks) {
        const body = await rpcResult(service.rpcUrl, "chunk", { chunk_id: header.chunk_hash });
        if (sentBy(height, header.shard_id)) continue;
        if (height === txHeight && header.shard_id === chain.shardOf(ALICE)) continue;
        expect(body).toEqual({ author: "test.near", header, transactions: [], receipts: [] });
      }
    }
    const bobNext = chain.blockByHeight(txHeight + 2)!.view.chunks[chain.shardLayout.indexOfShardId(chain.shardOf(BOB))!]!;
    expect((await rpcResult(service.rpcUrl, "chunk", { chunk_id: bobNext.chunk_hash })).receipts).toEqual([
      await rpcResult(service.rpcUrl, "EXPERIMENTAL_receipt", { receipt_id: refundId }),
    ]);
    const genesisChunk = chain.genesisBlock.view.chunks[0]!;
    expect(await rpcResult(service.archivalUrl, "chunk", { block_id: 0, shard_id: 0 })).toEqual({ author: "test.near", header: genesisChunk, transactions: [], receipts: [] });
  });

  it("refuses unknown chunks, blocks and shards as nearcore does", async () => {
    const error = async (params: unknown) => {
      const reply = await rpc(service.rpcUrl, "chunk", params);
      expect(reply.status).toBe(200);
      return reply.body.error;
    };
    const server = { name: "HANDLER_ERROR", code: -32000, message: "Server error" };
    const unknownHash = "4ECQXUWLV51SQQJnhJ36tc16sZupJD2MJ8nXzyFTqMc3";
    expect(await error({ chunk_id: unknownHash })).toEqual({
      ...server,
      cause: { name: "UNKNOWN_CHUNK", info: { chunk_hash: unknownHash } },
      data: `Chunk Missing (unavailable on the node): ChunkHash(\`${unknownHash}\`) \n Cause: Unknown`,
    });
    expect(await error({ block_id: 999, shard_id: 0 })).toEqual({ ...server, cause: { name: "UNKNOWN_BLOCK", info: {} }, data: "DB Not Found Error: BLOCK HEIGHT: 999 \n Cause: Unknown" });
    expect(await error({ block_id: unknownHash, shard_id: 0 })).toEqual({ ...server, cause: { name: "UNKNOWN_BLOCK", info: {} }, data: `DB Not Found Error: BLOCK: ${unknownHash} \n Cause: Unknown` });
    expect(await error({ block_id: txHeight, shard_id: 9 })).toEqual({ ...server, cause: { name: "INVALID_SHARD_ID", info: { shard_id: 9 } }, data: "Shard id 9 does not exist" });
    for (const bad of [{ chunk_id: unknownHash, shard_id: 0 }, [[1]], [1, 2], { block_id: 1 }]) {
      const reply = await rpc(service.rpcUrl, "chunk", bad);
      expect([reply.status, reply.body.error.cause.name]).toEqual([400, "PARSE_ERROR"]);
    }
  });

  it("follows the regular listener's retention window", async () => {
    const chain = service.chain;
    for (let i = 0; i < 5; i++) chain.produceBlock();
    const old = chain.blockByHeight(txHeight)!.view.chunks[0]!;
    expect((await rpc(service.rpcUrl, "chunk", { chunk_id: old.chunk_hash })).body.error.cause.name).toBe("UNKNOWN_CHUNK");
    expect((await rpc(service.rpcUrl, "chunk", { block_id: txHeight, shard_id: 0 })).body.error.cause.name).toBe("UNKNOWN_BLOCK");
    expect((await rpcResult(service.archivalUrl, "chunk", { chunk_id: old.chunk_hash })).header).toEqual(old);
  });
});

describe("@near-js/jsonrpc-client validates chunk with nearcore's schema", () => {
  beforeAll(() => enableValidation());
  it("a chunk with a transaction and a receipt", async () => {
    const client = new NearRpcClient({ endpoint: service.archivalUrl, retries: 0 });
    const result = await chunkMethod(client, { blockId: txHeight, shardId: service.chain.shardOf(ALICE) });
    expect(result.transactions[0]?.hash).toBe(txHash);
    const next = await chunkMethod(client, { blockId: txHeight + 1, shardId: service.chain.shardOf(ALICE) });
    expect(next.receipts[0]?.receiverId).toBe(BOB);
  });

  it("answers UNKNOWN_CHUNK, not an empty chunk, when the chain holds no body for the chunk", async () => {
    const chain = service.chain;
    const recorded = chain.chunkBodies;
    const shardId = chain.shardOf(ALICE);
    const header = chain.blockByHeight(txHeight)!.view.chunks[chain.shardLayout.indexOfShardId(shardId)!]!;
    expect(recorded.get(header.chunk_hash)).toBeDefined();
    const none: ChunkBodies = { get: () => undefined };
    Object.defineProperty(chain, "chunkBodies", { value: none, configurable: true });
    try {
      const reply = await rpc(service.archivalUrl, "chunk", { block_id: txHeight, shard_id: shardId });
      expect(reply.status).toBe(200);
      expect(reply.body.error.cause).toEqual({ name: "UNKNOWN_CHUNK", info: { chunk_hash: header.chunk_hash } });
      // Genesis chunks carry nothing and have no recorded body: they stay answerable.
      const genesis = await rpc(service.archivalUrl, "chunk", { block_id: chain.genesisBlock.height, shard_id: shardId });
      expect(genesis.body.result).toMatchObject({ transactions: [], receipts: [] });
    } finally {
      Object.defineProperty(chain, "chunkBodies", { value: recorded, configurable: true });
    }
  });
});
