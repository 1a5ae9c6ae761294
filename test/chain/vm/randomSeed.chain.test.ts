import { describe, expect, it } from "vitest";
import { parseCryptoHash } from "../../../src/chain/primitives/cryptoHash.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { actionHash } from "../../../src/chain/runtime/receiptId.js";
import { ALICE, BOB, CAROL, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { contract } from "./wat.js";

/** seed(): returns the 32-byte random_seed. */
const SEED = contract(
  `(import "env" "random_seed" (func $random_seed (param i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))`,
  `(func (export "seed") (call $random_seed (i64.const 0)) (call $value_return (i64.const -1) (i64.const 0)))`,
);

describe("random_seed (nearcore create_random_seed)", () => {
  it("is sha256(action hash ‖ block random_value): two calls in one block see different seeds", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, SEED);
    const txs = [submit(chain, BOB, ALICE, [call("seed")]), submit(chain, CAROL, ALICE, [call("seed")])];
    const runs = txs.map((tx) => {
      const fc = outcomeOf(settle(chain, tx)).receipts_outcome[0]!;
      const status = fc.outcome.status as { SuccessValue: string };
      const block = chain.blockByHash(fc.block_hash)!;
      const randomValue = parseCryptoHash(block.view.header.random_value);
      const expected = sha256(new Uint8Array([...actionHash(parseCryptoHash(fc.id), block.height, 0), ...randomValue]));
      return { seed: Buffer.from(status.SuccessValue, "base64"), expected: Buffer.from(expected), block: block.height, randomValue };
    });
    expect(runs[0]!.block).toBe(runs[1]!.block);
    expect(runs[0]!.seed).toHaveLength(32);
    expect(runs[0]!.seed).toEqual(runs[0]!.expected);
    expect(runs[1]!.seed).toEqual(runs[1]!.expected);
    expect(runs[0]!.seed).not.toEqual(runs[1]!.seed);
    expect(runs[0]!.seed).not.toEqual(Buffer.from(runs[0]!.randomValue));
  });
});
