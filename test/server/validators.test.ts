import { NearRpcClient, enableValidation, experimentalValidatorsOrdered, validators } from "@near-js/jsonrpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_VALIDATOR_STAKE } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, NEAR, keyOf, signedTx } from "../chain/runtime/helpers.js";
import { rpc, rpcResult, startTestService } from "./harness.js";

// Epochs of 5 blocks on 2 shards: epoch 0 = genesis + heights 1..5, epoch 1 = 6..10, epoch 2 = 11..15.
let service: Service;
const producer = devKeyPair("test.near").publicKeyString;
const stakeKey = formatPublicKey(keyOf("alice-validator").publicKey);

beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0, epochLength: 5, shards: 2 } });
  const chain = service.chain;
  // The test places blocks itself: no on-demand blocks after a submission (the last stake's
  // gas refund would otherwise get one more block, 12, to become final).
  chain.stop();
  for (let i = 0; i < 6; i++) chain.produceBlock(); // head 6: epoch 1 under way
  // Two Stake actions and a transfer in epoch 1; the latest proposal per account counts.
  chain.submitTransaction(signedTx(chain, ALICE, ALICE, [{ type: "Stake", stake: 5n * NEAR, publicKey: keyOf("alice-validator").publicKey }]));
  chain.submitTransaction(signedTx(chain, BOB, ALICE, [{ type: "Transfer", deposit: 1n }]));
  for (let i = 0; i < 2; i++) chain.produceBlock(); // head 8
  chain.submitTransaction(signedTx(chain, ALICE, ALICE, [{ type: "Stake", stake: 7n * NEAR, publicKey: keyOf("alice-validator").publicKey }]));
  for (let i = 0; i < 3; i++) chain.produceBlock(); // head 11: epoch 2 under way
});
afterAll(() => service.close());

const header = async (height: number) => (await rpcResult(service.rpcUrl, "block", { block_id: height })).header;

function producerInfo(blocks: number) {
  return {
    account_id: "test.near",
    public_key: producer,
    is_slashed: false,
    stake: DEV_VALIDATOR_STAKE.toString(),
    shards: [0, 1],
    num_produced_blocks: blocks,
    num_expected_blocks: blocks,
    num_produced_chunks: 2 * blocks,
    num_expected_chunks: 2 * blocks,
    num_produced_chunks_per_shard: [blocks, blocks],
    num_expected_chunks_per_shard: [blocks, blocks],
    num_produced_endorsements: 2 * blocks,
    num_expected_endorsements: 2 * blocks,
    num_produced_endorsements_per_shard: [blocks, blocks],
    num_expected_endorsements_per_shard: [blocks, blocks],
    shards_endorsed: [0, 1],
  };
}
const nextProducer = { account_id: "test.near", public_key: producer, stake: DEV_VALIDATOR_STAKE.toString(), shards: [0, 1] };

describe("validators", () => {
  it("answers the head's epoch counted up to the head, for [null], null, {} and \"latest\"", async () => {
    const expected = {
      current_validators: [producerInfo(1)],
      next_validators: [nextProducer],
      current_fishermen: [],
      next_fishermen: [],
      current_proposals: [],
      prev_epoch_kickout: [],
      epoch_start_height: 11,
      epoch_height: 3,
    };
    for (const params of [[null], null, {}, "latest"]) expect(await rpcResult(service.rpcUrl, "validators", params)).toEqual(expected);
    expect(await rpcResult(service.rpcUrl, "validators", { epoch_id: (await header(11)).epoch_id })).toEqual(expected);
  });

  it("answers a finished epoch by its id and by its last block, with the epoch's stake proposals", async () => {
    const epoch1 = {
      current_validators: [producerInfo(5)],
      next_validators: [nextProducer],
      current_fishermen: [],
      next_fishermen: [],
      current_proposals: [{ validator_stake_struct_version: "V1", account_id: ALICE, public_key: stakeKey, stake: (7n * NEAR).toString() }],
      prev_epoch_kickout: [],
      epoch_start_height: 6,
      epoch_height: 2,
    };
    const last = await header(10);
    expect(await rpcResult(service.rpcUrl, "validators", { epoch_id: (await header(6)).epoch_id })).toEqual(epoch1);
    expect(await rpcResult(service.rpcUrl, "validators", { block_id: 10 })).toEqual(epoch1);
    expect(await rpcResult(service.rpcUrl, "validators", { block_id: last.hash })).toEqual(epoch1);
    expect(await rpcResult(service.rpcUrl, "validators", [10])).toEqual(epoch1);
    // Epoch 0 holds the genesis block, which nobody produced: 5 produced blocks.
    const epoch0 = await rpcResult(service.rpcUrl, "validators", { epoch_id: "11111111111111111111111111111111" });
    expect(epoch0).toEqual({ ...epoch1, current_validators: [producerInfo(5)], current_proposals: [], epoch_start_height: 0, epoch_height: 1 });
    expect(await rpcResult(service.rpcUrl, "validators", { block_id: 5 })).toEqual(epoch0);
  });

  it("refuses blocks inside an epoch, the head, unknown blocks and epochs as nearcore does", async () => {
    const handlerError = async (params: unknown) => {
      const reply = await rpc(service.rpcUrl, "validators", params);
      expect(reply.status).toBe(200);
      return reply.body.error;
    };
    const unavailable = { name: "HANDLER_ERROR", cause: { name: "VALIDATOR_INFO_UNAVAILABLE" }, code: -32000, message: "Server error", data: "Validator info unavailable" };
    const unknownEpoch = { name: "HANDLER_ERROR", cause: { name: "UNKNOWN_EPOCH" }, code: -32000, message: "Server error", data: "Unknown Epoch" };
    expect(await handlerError({ block_id: 7 })).toEqual(unavailable);
    expect(await handlerError({ block_id: 11 })).toEqual(unknownEpoch); // the head: no successor yet
    expect(await handlerError({ block_id: 999 })).toEqual(unknownEpoch);
    expect(await handlerError({ epoch_id: (await header(11)).next_epoch_id })).toEqual(unknownEpoch);
    expect(await handlerError({ epoch_id: (await header(7)).hash })).toEqual(unknownEpoch);
    const parse = await rpc(service.rpcUrl, "validators", { epoch_id: (await header(6)).epoch_id, block_id: 10 });
    expect(parse.status).toBe(400);
    expect(parse.body.error.cause.name).toBe("PARSE_ERROR");
    expect((await rpc(service.rpcUrl, "validators", [1, 2])).body.error.cause.name).toBe("PARSE_ERROR");
  });
});

describe("EXPERIMENTAL_validators_ordered", () => {
  it("answers the producer of the head's epoch or of a block's epoch", async () => {
    const expected = [{ validator_stake_struct_version: "V1", account_id: "test.near", public_key: producer, stake: DEV_VALIDATOR_STAKE.toString() }];
    for (const params of [{}, { block_id: null }, [null], { block_id: 3 }, { block_id: (await header(8)).hash }, null]) {
      expect(await rpcResult(service.rpcUrl, "EXPERIMENTAL_validators_ordered", params)).toEqual(expected);
    }
    const reply = await rpc(service.rpcUrl, "EXPERIMENTAL_validators_ordered", { block_id: 999 });
    expect(reply.body.error).toEqual({ name: "HANDLER_ERROR", cause: { name: "UNKNOWN_EPOCH" }, code: -32000, message: "Server error", data: "Unknown Epoch" });
  });
});

describe("@near-js/jsonrpc-client validates both answers with nearcore's schemas", () => {
  beforeAll(() => enableValidation());
  it("validators by epoch id and block id, validators_ordered", async () => {
    const client = new NearRpcClient({ endpoint: service.rpcUrl, retries: 0 });
    const byEpoch = await validators(client, { epochId: (await header(6)).epoch_id });
    expect(byEpoch.epochStartHeight).toBe(6);
    expect(byEpoch.currentProposals[0]?.accountId).toBe(ALICE);
    expect((await validators(client, { blockId: 10 })).epochHeight).toBe(2);
    // The package types this method's result as the whole response envelope; it returns the array.
    const ordered = (await experimentalValidatorsOrdered(client, { blockId: null })) as unknown as { accountId: string }[];
    expect(ordered.map((v) => v.accountId)).toEqual(["test.near"]);
  });
});
