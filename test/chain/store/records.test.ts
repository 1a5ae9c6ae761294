import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import { ChainStoreError, type StoredBlock, type StoredGenesis } from "../../../src/chain/store/ChainStore.js";
import { MemoryChainStore } from "../../../src/chain/store/MemoryChainStore.js";
import { decodeRecord, encodeRecord } from "../../../src/chain/store/records/recordEnvelope.js";
import { formatHeaderCodec, heightCodec } from "../../../src/chain/store/records/smallRecords.js";
import { storedBlockCodec } from "../../../src/chain/store/records/storedBlockCodec.js";
import { storedGenesisCodec } from "../../../src/chain/store/records/storedGenesisCodec.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { decodeSignedTransaction, encodeSignedTransaction, signTransaction } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, keyOf, openChain, settle, submit } from "../runtime/helpers.js";

// The data dir's record codecs (src/chain/store/records/): golden bytes of version 1 of the
// block and genesis layouts (a change to a layout must come with a new version, never an edit
// of these files), every record a real chain writes read back equal, and what a reader refuses.

const golden = (name: string) => Buffer.from(readFileSync(join(import.meta.dirname, "golden", name), "utf8").trim(), "hex");
const h = (label: string) => sha256(new TextEncoder().encode(label));
const b58 = (label: string) => base58Encode(h(label));

function goldenBlock(): StoredBlock {
  const key = devKeyPair(ALICE);
  const stx = decodeSignedTransaction(
    encodeSignedTransaction(
      signTransaction({ version: 0, signerId: ALICE, publicKey: key.publicKey, nonce: 7n, receiverId: BOB, blockHash: h("prev"), actions: [{ type: "Transfer", deposit: NEAR }] }, key),
    ),
  );
  const receipt = {
    predecessorId: ALICE,
    receiverId: BOB,
    receiptId: h("receipt"),
    body: { type: "Action" as const, signerId: ALICE, signerPublicKey: key.publicKey, gasPrice: 100_000_000n, outputDataReceivers: [], inputDataIds: [], actions: [{ type: "Transfer" as const, deposit: NEAR }] },
  };
  return {
    height: 12,
    hash: b58("block"),
    timestampNs: 1_700_000_000_123_000_000n,
    stateChanges: [{ keys: ["\x00alice.test.near", "\x09alice.test.near,k"], values: ["\x01\x02", null] }],
    causedChanges: [
      [
        {
          key: "\x00alice.test.near",
          changes: [
            { cause: { type: "transaction_processing", txHash: stx.hash }, value: "\x01" },
            { cause: { type: "migration" }, value: "\x01\x02" },
          ],
        },
      ],
    ],
    chunkResults: [
      {
        included: [
          {
            stx,
            outcome: { id: stx.hash, logs: ["hello"], receiptIds: [h("receipt")], gasBurnt: 223_182_562_500n, tokensBurnt: 22_318_256_250_000_000_000n, executorId: ALICE, status: { kind: "SuccessReceiptId", receiptId: h("receipt") }, metadataVersion: 1 },
          },
        ],
        dropped: [{ stx, error: { InvalidNonce: { tx_nonce: 7, ak_nonce: 9 } } }],
        receiptOutcomes: [
          {
            id: h("receipt"),
            logs: [],
            receiptIds: [],
            gasBurnt: 1n,
            tokensBurnt: 2n,
            executorId: BOB,
            status: { kind: "Failure", error: { ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: BOB } } } } },
            metadataVersion: 3,
            gasProfile: [{ cost_category: "WASM_HOST_COST", cost: "BASE", gas_used: "264768111" }],
          },
        ],
        created: [receipt],
        createdBy: [stx.hash],
        outgoing: [receipt],
        gasUsed: 424_462_500_000n,
        balanceBurnt: 42_446_250_000_000_000_000n,
        proposals: [{ accountId: ROOT, publicKey: devKeyPair(ROOT).publicKeyString, stake: 5n * NEAR }],
        delayedReceipts: 3,
      },
    ],
    stateRoots: [h("root")],
    totalSupply: 10n ** 33n,
    outcomeRoots: [h("outcomes")],
    chunkHashes: [b58("chunk")],
    epochProposals: [[ROOT, 5n * NEAR]],
    signatures: { approval: new Uint8Array(64).fill(1), block: new Uint8Array(64).fill(2), chunks: [new Uint8Array(64).fill(3)] },
  };
}

function goldenGenesis(): StoredGenesis {
  return {
    config: { chainId: "localnet", genesisTimeNs: 1_735_689_600_000_000_000n, genesisHeight: 1000, protocolVersion: 85, gasPrice: 100_000_000n, gasLimit: 1_000_000_000_000_000, epochLength: 43_200, blockProducer: ROOT, shardLayout: undefined },
    layout: { boundaryAccounts: ["bob.test.near"], routing: "boundaries", shardIds: [0, 1] },
    author: ROOT,
    devGenesis: true,
    shards: [{ keys: ["\x00alice.test.near"], values: ["\x00\xff"] }, { keys: [], values: [] }],
    stateRoots: [h("root0"), h("root1")],
    totalSupply: 10n ** 33n,
    genesisHash: b58("genesis"),
    fork: { url: "https://rpc.example", archivalUrl: "https://archival.example", blockHash: b58("fork"), height: 999, prevHash: b58("fork-prev"), timestampNs: 1_735_689_599_000_000_000n, chainId: "mainnet" },
  };
}

describe("data dir record codecs", () => {
  it("write version 1 of the block layout byte for byte (golden), and read it back", () => {
    const bytes = encodeRecord(storedBlockCodec, goldenBlock());
    expect(bytes.toString("hex")).toBe(golden("block-v1.hex").toString("hex"));
    expect(decodeRecord(storedBlockCodec, golden("block-v1.hex"), "block")).toEqual(goldenBlock());
  });

  it("write version 1 of the genesis layout byte for byte (golden), and read it back", () => {
    const bytes = encodeRecord(storedGenesisCodec, goldenGenesis());
    expect(bytes.toString("hex")).toBe(golden("genesis-v1.hex").toString("hex"));
    expect(decodeRecord(storedGenesisCodec, golden("genesis-v1.hex"), "genesis")).toEqual(goldenGenesis());
    expect(encodeRecord(heightCodec, 1234).toString("hex")).toBe("530401d204000000000000");
    expect(decodeRecord(formatHeaderCodec, encodeRecord(formatHeaderCodec, { format: 4, software: "shardkit" }), "header")).toEqual({ format: 4, software: "shardkit" });
  });

  it("read back every block a real chain writes: transfers, contract calls with logs and refunds, a failure, cross-shard receipts", async () => {
    const store = new MemoryChainStore();
    const chain = await openChain({ chainStore: store });
    const TGAS = 10n ** 12n;
    const call = (methodName: string, args: unknown, deposit: bigint) => ({ type: "FunctionCall" as const, methodName, args: new TextEncoder().encode(JSON.stringify(args)), gas: 100n * TGAS, deposit });
    settle(chain, submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]));
    settle(chain, submit(chain, CAROL, "ft.test.near", [call("storage_deposit", {}, NEAR)]));
    settle(chain, submit(chain, ROOT, "ft.test.near", [call("ft_transfer", { receiver_id: CAROL, amount: "5" }, 1n)]));
    settle(chain, submit(chain, ROOT, "ft.test.near", [call("ft_transfer", { receiver_id: "nobody.test.near", amount: "5" }, 1n)]));
    settle(chain, submit(chain, BOB, BOB, [{ type: "AddKey", publicKey: keyOf("k").publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
    settle(chain, submit(chain, ROOT, "relay.test.near", [call("forward", { receiver_id: "ft.test.near", method_name: "ft_balance_of", args: { account_id: CAROL } }, 0n)]));
    let blocks = 0;
    for (let height = chain.genesisBlock.height + 1; height <= chain.head().height; height++) {
      const block = store.block(height)!;
      expect(decodeRecord(storedBlockCodec, encodeRecord(storedBlockCodec, block), `block ${height}`)).toEqual(block);
      blocks++;
    }
    expect(blocks).toBeGreaterThan(10);
    const genesis = store.genesis()!;
    expect(decodeRecord(storedGenesisCodec, encodeRecord(storedGenesisCodec, genesis), "genesis")).toEqual({ ...genesis, config: { ...genesis.config, shardLayout: undefined } });
    await chain.close();
  });

  it("round-trips receipt outcomes with ExecutionMetadata V4 contracts of every kind (the V3 golden above still reads)", () => {
    const block = goldenBlock();
    const [v3] = block.chunkResults[0]!.receiptOutcomes;
    const v4 = {
      ...v3!,
      metadataVersion: 4 as const,
      contracts: [null, { kind: "Local" as const, codeHash: h("local") }, { kind: "Global" as const, codeHash: h("global") }, { kind: "GlobalByAccount" as const, accountId: CAROL }],
    };
    const withV4 = { ...block, chunkResults: [{ ...block.chunkResults[0]!, receiptOutcomes: [v4, { ...v4, contracts: [] }] }] };
    expect(decodeRecord(storedBlockCodec, encodeRecord(storedBlockCodec, withV4), "block")).toEqual(withV4);
  });

  it.each([
    ["a truncated record", (b: Buffer) => b.subarray(0, b.length - 5), /block 12: corrupt block record \(unexpected end of borsh data/],
    ["a trailing byte", (b: Buffer) => Buffer.concat([b, Buffer.from([0])]), /block 12: corrupt block record \(1 trailing bytes after borsh value\)/],
    ["a newer layout version", (b: Buffer) => Buffer.concat([b.subarray(0, 2), Buffer.from([2]), b.subarray(3)]), /block 12: block record version 2 is newer than this shardkit reads \(1\); upgrade shardkit/],
    ["another record kind", (b: Buffer) => Buffer.concat([b.subarray(0, 1), Buffer.from([2]), b.subarray(2)]), /block 12: a genesis record where a block belongs/],
    ["no envelope", (b: Buffer) => b.subarray(3), /block 12: not a shardkit record/],
  ])("refuses %s with a ChainStoreError naming the record", (_what, damage, message) => {
    const bytes = damage(encodeRecord(storedBlockCodec, goldenBlock()));
    expect(() => decodeRecord(storedBlockCodec, bytes, "block 12")).toThrow(ChainStoreError);
    expect(() => decodeRecord(storedBlockCodec, bytes, "block 12")).toThrow(message);
  });
  it("reads a format-3 (V8-serialised) record of the right shape and refuses one of another shape", () => {
    const block = goldenBlock();
    expect(decodeRecord(storedBlockCodec, serialize(block), "block 12")).toEqual(block);
    expect(decodeRecord(heightCodec, serialize(12), "head")).toBe(12);
    const damaged = [
      { ...block, height: "12" },
      { ...block, stateRoots: ["not bytes"] },
      { ...block, signatures: { ...block.signatures, chunks: undefined } },
    ];
    for (const record of damaged) {
      expect(() => decodeRecord(storedBlockCodec, serialize(record), "block 12")).toThrow(ChainStoreError);
      expect(() => decodeRecord(storedBlockCodec, serialize(record), "block 12")).toThrow("block 12: format-3 record is not a well-formed block");
    }
    expect(() => decodeRecord(heightCodec, serialize(1.5), "head")).toThrow("head: format-3 record is not a well-formed height");
    expect(() => decodeRecord(formatHeaderCodec, serialize({ format: 3, software: "other" }), "data dir")).toThrow("data dir: format-3 record is not a well-formed format header");
  });
});
