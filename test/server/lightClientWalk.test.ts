import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_VALIDATOR_STAKE } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { LightClient, LightClientProofError, blockHashOfLite, base58EncodeForTest, type LightClientBlockView } from "./lightClientTestExports.js";
import type { Service } from "../../src/server/startService.js";
import { signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

// A light client walking a chain from genesis to its final head over HTTP. The chain starts
// from a genesis file whose validator (test.near) has stake (and a short epoch), and the default
// dev chain is walked too (its producer has DEV_VALIDATOR_STAKE locked); a light client needs
// more than 2/3 of the stake to approve.

const NEAR = 10n ** 24n;
const STAKE = 100n * NEAR;
const GENESIS_HEIGHT = 10;
const EPOCH = 4;
const dir = mkdtempSync(join(tmpdir(), "shardkit-lightclient-"));

function genesisFile(): string {
  const account = (id: string, amount: bigint, locked: bigint) => [
    { Account: { account_id: id, account: { amount: amount.toString(), locked: locked.toString(), code_hash: "11111111111111111111111111111111", storage_usage: 182, version: "V1" } } },
    { AccessKey: { account_id: id, public_key: devKeyPair(id).publicKeyString, access_key: { nonce: 0, permission: "FullAccess" } } },
  ];
  const records = [...account("alice.near", 1000n * NEAR, 0n), ...account("bob.near", 1000n * NEAR, 0n), ...account("test.near", 1000n * NEAR, STAKE)];
  const path = join(dir, "genesis.json");
  writeFileSync(
    path,
    JSON.stringify({
      chain_id: "lightclient-net",
      genesis_time: "2024-02-03T04:05:06.000000000Z",
      genesis_height: GENESIS_HEIGHT,
      protocol_version: 78,
      min_gas_price: "100000000",
      epoch_length: EPOCH,
      shard_layout: { V2: { boundary_accounts: ["b"], shard_ids: [0, 1], version: 3 } },
      validators: [{ account_id: "test.near", public_key: devKeyPair("test.near").publicKeyString, amount: STAKE.toString() }],
      total_supply: (3000n * NEAR + STAKE * 0n).toString(),
      records,
    }),
  );
  return path;
}

let service: Service;
let txHash: string;
const next = async (last: string): Promise<LightClientBlockView | undefined> => {
  const res = await rpcResult(service.rpcUrl, "next_light_client_block", { last_block_hash: last });
  return Object.keys(res).length === 0 ? undefined : res;
};

async function trustedGenesis() {
  const genesis = service.chain.genesisBlock;
  const { block_header_lite } = await rpcResult(service.rpcUrl, "EXPERIMENTAL_light_client_block_proof", { block_hash: genesis.hash, light_client_head: genesis.hash });
  expect(base58EncodeForTest(blockHashOfLite(block_header_lite))).toBe(genesis.hash);
  const bps = await rpcResult(service.rpcUrl, "EXPERIMENTAL_validators_ordered", { block_id: genesis.height });
  expect(bps).toEqual([{ account_id: "test.near", public_key: devKeyPair("test.near").publicKeyString, stake: STAKE.toString(), validator_stake_struct_version: "V1" }]);
  return new LightClient({ head: block_header_lite, blockProducers: new Map([[block_header_lite.inner_lite.epoch_id, bps]]) });
}

beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0, genesisFile: genesisFile() } });
  const chain = service.chain;
  // The test places transactions in blocks itself: no on-demand blocks after a submission.
  chain.stop();
  chain.produceBlock();
  const bytes = signedTx(chain, "alice.near", "bob.near", [{ type: "Transfer", deposit: NEAR }]);
  txHash = await rpcResult(service.rpcUrl, "broadcast_tx_async", [Buffer.from(bytes).toString("base64")]);
  for (let i = 0; i < 3 * EPOCH + 3; i++) chain.produceBlock();
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("light client walk with next_light_client_block", () => {
  it("walks from genesis across epochs to the final head, verifying approvals and next_bps, then proves a transaction", async () => {
    const lc = await trustedGenesis();
    const heights: number[] = [];
    const steps = await lc.sync(async (last) => {
      const block = await next(last);
      if (block !== undefined) heights.push(block.inner_lite.height);
      return block;
    });
    const final = service.chain.blockByFinality("final");
    expect(lc.headHash).toBe(final.hash);
    expect(lc.head.inner_lite.height).toBe(final.height);
    expect(steps).toBe(heights.length);
    // One block per finished epoch (its last final block), then the head's final block.
    const epochs = new Set(heights.map((h) => Math.floor((h - GENESIS_HEIGHT - 1) / EPOCH)));
    expect(epochs.size).toBeGreaterThanOrEqual(3);
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
    expect(await next(lc.headHash)).toBeUndefined();

    const proof = await rpcResult(service.rpcUrl, "light_client_proof", { type: "transaction", transaction_hash: txHash, sender_id: "alice.near", light_client_head: lc.headHash });
    expect(lc.verifyOutcome(proof).blockHash).toBe(proof.outcome_proof.block_hash);
  });

  it("rejects a tampered light-client block", async () => {
    const genesisHash = service.chain.genesisBlock.hash;
    const block = (await next(genesisHash))!;
    const codeOf = async (mutate: (b: any) => void) => {
      const lc = await trustedGenesis();
      const b = structuredClone(block) as any;
      mutate(b);
      try {
        lc.apply(b);
        return "applied";
      } catch (e) {
        expect(e).toBeInstanceOf(LightClientProofError);
        return (e as LightClientProofError).code;
      }
    };
    expect(await codeOf(() => {})).toBe("applied");
    const flip = (sig: string) => `ed25519:${sig.slice(8, 20)}${sig[20] === "A" ? "B" : "A"}${sig.slice(21)}`;
    expect(await codeOf((b) => (b.approvals_after_next[0] = flip(b.approvals_after_next[0])))).toBe("BAD_SIGNATURE");
    expect(await codeOf((b) => (b.inner_lite.prev_state_root = b.prev_block_hash))).toBe("BAD_SIGNATURE");
    expect(await codeOf((b) => (b.next_block_inner_hash = b.inner_rest_hash))).toBe("BAD_SIGNATURE");
    expect(await codeOf((b) => (b.approvals_after_next[0] = null))).toBe("NOT_ENOUGH_APPROVALS");
    expect(await codeOf((b) => (b.approvals_after_next = []))).toBe("NOT_ENOUGH_APPROVALS");
    expect(await codeOf((b) => (b.next_bps[0].stake = "1"))).toBe("NEXT_BPS_MISMATCH");
    expect(await codeOf((b) => (b.inner_lite.epoch_id = b.prev_block_hash))).toBe("WRONG_EPOCH");
    expect(await codeOf((b) => (b.inner_lite.height = GENESIS_HEIGHT))).toBe("NOT_NEWER");
  });

  it("answers UNKNOWN_BLOCK with the serialised cause as data for an unknown last block", async () => {
    const { error } = await rpcError(service.rpcUrl, "next_light_client_block", { last_block_hash: "4o7xrjNBbXnMmC4FvMjkU9CKUmW46BNYmzgpoDvV8GrZ" });
    expect(error.cause).toEqual({ name: "UNKNOWN_BLOCK", info: {} });
    expect(error.data).toEqual({ name: "UNKNOWN_BLOCK", info: {} });
  });
});

describe("light client on the default dev chain", () => {
  it("walks from the dev genesis to the final head: the producer's stake (DEV_VALIDATOR_STAKE) approves every block", async () => {
    const dev = await startTestService({ chain: { blockTimeMs: 0 } });
    try {
      for (let i = 0; i < 5; i++) dev.chain.produceBlock();
      const genesis = dev.chain.genesisBlock;
      const { block_header_lite } = await rpcResult(dev.rpcUrl, "EXPERIMENTAL_light_client_block_proof", { block_hash: genesis.hash, light_client_head: genesis.hash });
      const bps = await rpcResult(dev.rpcUrl, "EXPERIMENTAL_validators_ordered", { block_id: genesis.height });
      expect(bps).toEqual([{ account_id: "test.near", public_key: devKeyPair("test.near").publicKeyString, stake: DEV_VALIDATOR_STAKE.toString(), validator_stake_struct_version: "V1" }]);
      const lc = new LightClient({ head: block_header_lite, blockProducers: new Map([[block_header_lite.inner_lite.epoch_id, bps]]) });
      await lc.sync(async (last) => {
        const res = await rpcResult(dev.rpcUrl, "next_light_client_block", { last_block_hash: last });
        return Object.keys(res).length === 0 ? undefined : res;
      });
      expect(lc.headHash).toBe(dev.chain.blockByFinality("final").hash);
    } finally {
      await dev.close();
    }
  });
});
