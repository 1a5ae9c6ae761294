import { describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  CREATE_ACCOUNT_CHARGE,
  GAS_PRICE,
  NEAR,
  ROOT,
  TRANSFER_GAS,
  balanceOf,
  openChain,
  outcomeOf,
  priceSurplus,
  settle,
  submit,
  sumOfBalances,
} from "./helpers.js";

const TRANSFER_TOKENS = TRANSFER_GAS * GAS_PRICE;

describe("transfers", () => {
  it("burns exactly nearcore's transfer gas and tokens in both outcomes", async () => {
    const chain = await openChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const o = outcomeOf(settle(chain, hash));
    expect(TRANSFER_TOKENS.toString()).toBe("22318256250000000000");
    expect(o.transaction_outcome.outcome).toMatchObject({
      gas_burnt: 223_182_562_500,
      tokens_burnt: "22318256250000000000",
      executor_id: ALICE,
      logs: [],
      metadata: { version: 1, gas_profile: null },
    });
    // NEP-642: the receipt's gas was bought at 10^9 and burnt at the block's 10^8; the
    // difference on the burnt gas comes back in a gas refund (no gas was left over).
    expect(o.receipts_outcome).toHaveLength(2);
    const [main, refund] = o.receipts_outcome;
    expect(main!.outcome).toEqual({
      logs: [],
      receipt_ids: [refund!.id],
      gas_burnt: 223_182_562_500,
      tokens_burnt: "22318256250000000000",
      executor_id: BOB,
      status: { SuccessValue: "" },
      metadata: { version: 4, gas_profile: [], contracts: [null] },
    });
    expect(refund!.outcome).toMatchObject({ executor_id: ALICE, tokens_burnt: "0", status: { SuccessValue: "" } });
    expect(chain.receipt(refund!.id)?.receipt).toMatchObject({
      Action: { signer_id: ALICE, gas_price: "0", actions: [{ Transfer: { deposit: "200864306250000000000" } }] },
    });
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(o.transaction_outcome.outcome.status).toEqual({ SuccessReceiptId: o.receipts_outcome[0]!.id });
    expect(o.transaction_outcome.outcome.receipt_ids).toEqual([o.receipts_outcome[0]!.id]);
  });

  it("runs a cross-shard receipt in the next block on the receiver's shard", async () => {
    const chain = await openChain();
    expect(chain.shardOf(ALICE)).not.toBe(chain.shardOf(BOB));
    const start = chain.head().height;
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const s = settle(chain, hash);
    const o = outcomeOf(s);
    const txBlock = chain.blockByHash(o.transaction_outcome.block_hash)!;
    const receiptBlock = chain.blockByHash(o.receipts_outcome[0]!.block_hash)!;
    expect(txBlock.height).toBe(start + 1);
    expect(receiptBlock.height).toBe(start + 2);
    // The transaction is in the signer's chunk, the receipt's gas in the receiver's chunk.
    const chunkOf = (block: typeof txBlock, account: string) =>
      block.view.chunks.find((c) => c.shard_id === chain.shardOf(account))!;
    expect(chunkOf(txBlock, ALICE).gas_used).toBe(Number(TRANSFER_GAS));
    expect(chunkOf(txBlock, ALICE).balance_burnt).toBe(TRANSFER_TOKENS.toString());
    expect(chunkOf(txBlock, ALICE).tx_root).not.toBe("11111111111111111111111111111111");
    expect(chunkOf(txBlock, ALICE).outgoing_receipts_root).not.toBe("11111111111111111111111111111111");
    expect(chunkOf(txBlock, BOB).gas_used).toBe(0);
    expect(chunkOf(receiptBlock, BOB).gas_used).toBe(Number(TRANSFER_GAS));
    expect(chunkOf(receiptBlock, BOB).balance_burnt).toBe(TRANSFER_TOKENS.toString());
    expect(txBlock.view.header.gas_price).toBe("100000000");
  });

  it("runs a transfer to the signer itself (a local receipt) in the same chunk", async () => {
    const chain = await openChain();
    const before = balanceOf(chain, ALICE);
    const start = chain.head().height;
    const hash = submit(chain, ALICE, ALICE, [{ type: "Transfer", deposit: NEAR }]);
    const s = settle(chain, hash);
    const o = outcomeOf(s);
    expect(chain.blockByHash(o.transaction_outcome.block_hash)!.height).toBe(start + 1);
    expect(chain.blockByHash(o.receipts_outcome[0]!.block_hash)!.height).toBe(start + 1);
    // nearcore does not store local receipts, so EXPERIMENTAL_tx_status lists only the gas refund...
    expect(s.receipts!.map((r) => r.receipt_id)).toEqual([o.receipts_outcome[1]!.id]);
    // ...while EXPERIMENTAL_receipt still finds it here.
    expect(chain.receipt(o.receipts_outcome[0]!.id)).toMatchObject({ predecessor_id: ALICE, receiver_id: ALICE });
    expect(balanceOf(chain, ALICE)).toBe(before - 2n * TRANSFER_TOKENS);
  });

  it("runs a same-shard receipt to another account in the next block, as nearcore does", async () => {
    const chain = await openChain();
    const sub = `a.${ALICE}`; // "a…" < "b": shard 0, like alice
    settle(chain, submit(chain, ALICE, sub, [{ type: "CreateAccount" }, { type: "Transfer", deposit: NEAR }]));
    expect(chain.shardOf(sub)).toBe(chain.shardOf(ALICE));
    const start = chain.head().height;
    const o = outcomeOf(settle(chain, submit(chain, ALICE, sub, [{ type: "Transfer", deposit: 1n }])));
    expect(chain.blockByHash(o.receipts_outcome[0]!.block_hash)!.height).toBe(start + 2);
  });

  it("moves exact balances: sender pays deposit + tokens burnt, receiver gets the deposit", async () => {
    const chain = await openChain();
    const [a0, b0] = [balanceOf(chain, ALICE), balanceOf(chain, BOB)];
    const deposit = 1_234_567_890_123_456_789n;
    settle(chain, submit(chain, ALICE, BOB, [{ type: "Transfer", deposit }]));
    expect(balanceOf(chain, ALICE)).toBe(a0 - deposit - 2n * TRANSFER_TOKENS);
    expect(balanceOf(chain, BOB)).toBe(b0 + deposit);
    expect(BigInt(chain.head().view.header.total_supply)).toBe(chain.totalSupply - 2n * TRANSFER_TOKENS);
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("refunds the deposit of a transfer to a missing account with a receipt from system", async () => {
    const chain = await openChain();
    const a0 = balanceOf(chain, ALICE);
    const s = settle(chain, submit(chain, ALICE, "nobody.test.near", [{ type: "Transfer", deposit: NEAR }]));
    const o = outcomeOf(s);
    expect(o.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: "nobody.test.near" } } } },
    });
    // The deposit comes back to the predecessor, then the gas (all of it bought at 10^9, the
    // burnt part refunded at the price difference) to the signer.
    const [main, refund, gasRefund] = o.receipts_outcome;
    expect(main!.outcome.receipt_ids).toEqual([refund!.id, gasRefund!.id]);
    expect(chain.receipt(gasRefund!.id)?.receipt).toMatchObject({
      Action: { actions: [{ Transfer: { deposit: priceSurplus(TRANSFER_GAS).toString() } }] },
    });
    expect(refund!.outcome).toMatchObject({
      executor_id: ALICE,
      gas_burnt: Number(TRANSFER_GAS), // counted towards the chunk's gas, but free
      tokens_burnt: "0",
      status: { SuccessValue: "" },
      receipt_ids: [],
    });
    const view = chain.receipt(refund!.id)!;
    expect(view).toEqual({
      predecessor_id: "system",
      receiver_id: ALICE,
      receipt_id: refund!.id,
      receipt: {
        Action: {
          signer_id: "system",
          signer_public_key: "ed25519:11111111111111111111111111111111",
          gas_price: "0",
          output_data_receivers: [],
          input_data_ids: [],
          actions: [{ Transfer: { deposit: NEAR.toString() } }],
          is_promise_yield: false,
        },
      },
      priority: 0,
    });
    expect(s.receipts!.map((r) => r.receipt_id)).toEqual(o.receipts_outcome.map((r) => r.id));
    expect(balanceOf(chain, ALICE)).toBe(a0 - 2n * TRANSFER_TOKENS);
  });

  it("creates a NEAR-implicit account from a lone transfer", async () => {
    const chain = await openChain();
    const implicit = "ab".repeat(32);
    const root0 = balanceOf(chain, ROOT);
    const s = settle(chain, submit(chain, ROOT, implicit, [{ type: "Transfer", deposit: NEAR }]));
    expect(outcomeOf(s).status).toEqual({ SuccessValue: "" });
    const account = chain.at(chain.head()).account(implicit)!;
    expect(account.amount).toBe(NEAR);
    expect(account.storageUsage).toBe(182); // 100 + 33 (key) + 9 (access key) + 40
    const keys = chain.at(chain.head()).accessKeys(implicit);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.accessKey.permission).toBe("FullAccess");
    const receiptHeight = chain.blockByHash(outcomeOf(s).receipts_outcome[0]!.block_hash)!.height;
    expect(keys[0]!.accessKey.nonce).toBe(BigInt(receiptHeight - 1) * 1_000_000n);
    // The implicit creation fees (create account + full access key) are charged on top.
    const sendGas = 108_059_500_000n + 115_123_062_500n + 500_000_000_000n + 101_765_125_000n;
    const execGas = 108_059_500_000n + 115_123_062_500n + 7_200_000_000_000n + 101_765_125_000n;
    const [main, refund] = outcomeOf(s).receipts_outcome;
    expect(outcomeOf(s).transaction_outcome.outcome.gas_burnt).toBe(Number(sendGas));
    // NEP-642: creating the account costs 0.007 NEAR in all; what the execution gas does not
    // burn is taken from the price surplus and counted in tokens_burnt, not gas_burnt.
    expect(main!.outcome).toMatchObject({
      gas_burnt: Number(execGas),
      tokens_burnt: (execGas * GAS_PRICE + CREATE_ACCOUNT_CHARGE).toString(),
      receipt_ids: [refund!.id],
    });
    expect(chain.receipt(refund!.id)?.receipt).toMatchObject({
      Action: { actions: [{ Transfer: { deposit: (priceSurplus(execGas) - CREATE_ACCOUNT_CHARGE).toString() } }] },
    });
    expect(balanceOf(chain, ROOT)).toBe(root0 - NEAR - (sendGas + execGas) * GAS_PRICE - CREATE_ACCOUNT_CHARGE);
  });
});
