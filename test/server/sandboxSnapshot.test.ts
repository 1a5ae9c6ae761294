import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, NEAR, signedTx } from "../chain/runtime/helpers.js";
import { rpc, rpcError, rpcResult, startTestService } from "./harness.js";

// shardkit_snapshot / shardkit_revert over real HTTP, on the in-memory store (--ephemeral) and
// on the on-disk LMDB store (the default of `serve`), where a restart must see the reverted chain.
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe.each(["memory", "disk"] as const)("shardkit_snapshot / shardkit_revert (%s store)", (storage) => {
  const dataDir = storage === "disk" ? mkdtempSync(join(tmpdir(), "shardkit-snapshot-")) : undefined;
  if (dataDir !== undefined) dirs.push(dataDir);
  const start = () => startTestService({ apiPort: 0, chain: { blockTimeMs: 0, ...(dataDir === undefined ? {} : { dataDir }) } });

  it("reverts state, blocks, transactions, receipts and REST rows; heights are reused with new hashes", async () => {
    const service: Service = await start();
    try {
      const url = service.rpcUrl;
      const view = (account_id: string) => rpcResult(url, "query", { request_type: "view_account", finality: "optimistic", account_id });
      const restBalance = async (accountId: string) => {
        const body = (await (await fetch(`${service.apiUrl!}/v1/account/${accountId}/full`)).json()) as { block_height: number; state: { balance: string } | null };
        return { height: body.block_height, balance: body.state?.balance ?? null };
      };
      for (let i = 0; i < 3; i++) service.chain.produceBlock();
      const [aliceBefore, bobBefore] = [await view(ALICE), await view(BOB)];
      await service.indexer.whenIndexed(service.chain.head().height);
      const restBefore = await restBalance(BOB);

      const snapshot = await rpcResult(url, "shardkit_snapshot", {});
      const head = service.chain.head();
      expect(snapshot).toEqual({ snapshot_id: "0x1", block_height: head.height, block_hash: head.hash });

      // After the snapshot: a transaction, a patch, a fast-forward.
      const signed = b64(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: 5n * NEAR }]));
      const sent = await rpcResult(url, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
      const txHash: string = sent.transaction.hash;
      const receiptId: string = sent.receipts_outcome[0].id;
      const txBlockHash: string = sent.transaction_outcome.block_hash;
      await rpcResult(url, "sandbox_patch_state", {
        records: [{ Account: { account_id: "ghost.test.near", account: { amount: "1", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 } } }],
      });
      await rpcResult(url, "sandbox_fast_forward", { delta_height: 5 });
      const oldNext = await rpcResult(url, "block", { block_id: head.height + 1 });
      expect(BigInt((await view(BOB)).amount)).toBe(BigInt(bobBefore.amount) + 5n * NEAR);
      await service.indexer.whenIndexed(service.chain.head().height);
      expect((await restBalance(BOB)).balance).toBe((BigInt(bobBefore.amount) + 5n * NEAR).toString());
      expect(service.chain.producer.clockLeadMs).toBeGreaterThanOrEqual(5_000);

      expect(await rpcResult(url, "shardkit_revert", { snapshot_id: "0x1" })).toEqual({ block_height: head.height, block_hash: head.hash });

      // The chain is as it was at the snapshot, on both listeners.
      for (const listener of [url, service.archivalUrl]) {
        const optimistic = await rpcResult(listener, "block", { finality: "optimistic" });
        expect(optimistic.header).toMatchObject({ height: head.height, hash: head.hash });
        expect((await rpcError(listener, "block", { block_id: txBlockHash })).error.cause.name).toBe("UNKNOWN_BLOCK");
        expect((await rpcError(listener, "block", { block_id: head.height + 1 })).error.cause.name).toBe("UNKNOWN_BLOCK");
        expect((await rpcError(listener, "tx", { tx_hash: txHash, sender_account_id: ALICE, wait_until: "NONE" })).error.cause.name).toBe("UNKNOWN_TRANSACTION");
        expect((await rpcError(listener, "EXPERIMENTAL_receipt", { receipt_id: receiptId })).error.cause.name).toBe("UNKNOWN_RECEIPT");
      }
      expect(await view(ALICE)).toEqual(aliceBefore);
      expect(await view(BOB)).toEqual(bobBefore);
      expect((await rpcError(url, "query", { request_type: "view_account", finality: "optimistic", account_id: "ghost.test.near" })).error.cause.name).toBe("UNKNOWN_ACCOUNT");
      expect(service.chain.producer.clockLeadMs).toBe(0);
      // The REST index (in memory or on disk) was rewound by the undone blocks, not rebuilt
      // from genesis: it is at the snapshot's block at once, without rows of the reverted ones.
      expect(service.indexer.store.height).toBe(head.height);
      expect(await restBalance(BOB)).toEqual(restBefore);

      // The next block reuses the height with a new hash; the same signed transaction runs again.
      const again = await rpcResult(url, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
      expect(again.transaction.hash).toBe(txHash);
      expect(again.status).toEqual({ SuccessValue: "" });
      const newNext = await rpcResult(url, "block", { block_id: head.height + 1 });
      expect(newNext.header.hash).not.toBe(oldNext.header.hash);
      expect(newNext.header.prev_hash).toBe(head.hash);
      expect(BigInt((await view(BOB)).amount)).toBe(BigInt(bobBefore.amount) + 5n * NEAR);

      // A consumed snapshot is unknown.
      const unknown = await rpcError(url, "shardkit_revert", { snapshot_id: "0x1" });
      expect(unknown.status).toBe(200);
      expect(unknown.error).toMatchObject({
        name: "HANDLER_ERROR",
        code: -32000,
        cause: { name: "UNKNOWN_SNAPSHOT", info: { snapshot_id: "0x1" } },
        data: "Snapshot 0x1 is unknown (never taken, or consumed by a revert)",
      });
    } finally {
      await service.close();
    }
  });

  it("a revert consumes later snapshots, keeps earlier ones; ids keep counting", async () => {
    const service = await start();
    try {
      const url = service.rpcUrl;
      const first = await rpcResult(url, "shardkit_snapshot", []);
      service.chain.produceBlock();
      const second = await rpcResult(url, "shardkit_snapshot", null);
      service.chain.produceBlock();
      const third = await rpcResult(url, "shardkit_snapshot", {});
      expect([first.snapshot_id, second.snapshot_id, third.snapshot_id]).toEqual(["0x1", "0x2", "0x3"]);
      expect((await rpcResult(url, "shardkit_revert", { snapshot_id: "0x2" })).block_height).toBe(second.block_height);
      expect((await rpcError(url, "shardkit_revert", { snapshot_id: "0x3" })).error.cause.name).toBe("UNKNOWN_SNAPSHOT");
      expect((await rpcResult(url, "shardkit_snapshot", {})).snapshot_id).toBe("0x4");
      expect(await rpcResult(url, "shardkit_revert", { snapshot_id: "0x1" })).toEqual({ block_height: first.block_height, block_hash: first.block_hash });
      for (const id of ["0x2", "0x4"]) expect((await rpcError(url, "shardkit_revert", { snapshot_id: id })).error.cause.name).toBe("UNKNOWN_SNAPSHOT");
    } finally {
      await service.close();
    }
  });

  it("takes any spelling of an id, as Anvil: leading zeros and upper case", async () => {
    const service = await start();
    try {
      const url = service.rpcUrl;
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        ids.push((await rpcResult(url, "shardkit_snapshot", {})).snapshot_id);
        service.chain.produceBlock();
      }
      expect(ids.at(-1)).toBe("0xa");
      const tenth = service.chain.head().height - 1;
      expect((await rpcResult(url, "shardkit_revert", { snapshot_id: "0X000A" })).block_height).toBe(tenth);
      const second = await rpcResult(url, "shardkit_revert", { snapshot_id: "0x02" });
      expect(second.block_height).toBe(tenth - 8);
      const gone = await rpcError(url, "shardkit_revert", { snapshot_id: "0x03" });
      expect(gone.error.cause).toMatchObject({ name: "UNKNOWN_SNAPSHOT", info: { snapshot_id: "0x03" } });
    } finally {
      await service.close();
    }
  });

  it("is refused on the archival listener (METHOD_NOT_FOUND) and bad ids are PARSE_ERRORs", async () => {
    const service = await start();
    try {
      for (const [method, params] of [["shardkit_snapshot", {}], ["shardkit_revert", { snapshot_id: "0x1" }]] as const) {
        const reply = await rpc(service.archivalUrl, method, params);
        expect(reply.status).toBe(400);
        expect(reply.body.error).toMatchObject({ name: "REQUEST_VALIDATION_ERROR", code: -32601, cause: { name: "METHOD_NOT_FOUND", info: { method_name: method } } });
      }
      for (const params of [{}, { snapshot_id: 1 }, { snapshot_id: "1" }, { snapshot_id: "0xZ" }]) {
        expect((await rpcError(service.rpcUrl, "shardkit_revert", params)).error.cause.name).toBe("PARSE_ERROR");
      }
      expect((await rpcError(service.rpcUrl, "shardkit_snapshot", { x: 1 })).error.cause.name).toBe("PARSE_ERROR");
    } finally {
      await service.close();
    }
  });
});

describe("shardkit_revert on the LMDB data dir", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "shardkit-snapshot-"));
  dirs.push(dataDir);
  const start = () => startTestService({ chain: { blockTimeMs: 0, dataDir } });

  it("a restart resumes the reverted chain from the data dir", async () => {
    const service = await start();
    const url = service.rpcUrl;
    const snapshot = await rpcResult(url, "shardkit_snapshot", {});
    const signed = b64(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]));
    const sent = await rpcResult(url, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
    await rpcResult(url, "sandbox_fast_forward", { delta_height: 3 });
    await rpcResult(url, "shardkit_revert", { snapshot_id: snapshot.snapshot_id });
    service.chain.produceBlock();
    const headBefore = service.chain.head();
    await service.close();

    const reopened = await start();
    try {
      expect(reopened.chain.head().hash).toBe(headBefore.hash);
      expect(reopened.chain.head().height).toBe(snapshot.block_height + 1);
      const error = await rpcError(reopened.rpcUrl, "tx", { tx_hash: sent.transaction.hash, sender_account_id: ALICE, wait_until: "NONE" });
      expect(error.error.cause.name).toBe("UNKNOWN_TRANSACTION");
      reopened.chain.produceBlock();
      expect((await rpcResult(reopened.rpcUrl, "block", { finality: "optimistic" })).header.prev_hash).toBe(headBefore.hash);
    } finally {
      await reopened.close();
    }
  });
});
