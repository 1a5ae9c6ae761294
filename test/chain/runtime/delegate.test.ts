import { describe, expect, it } from "vitest";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { signDelegateAction, type NonDelegateAction } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, CAROL, GAS_PRICE, NEAR, TRANSFER_GAS, balanceOf, keyOf, openChain, outcomeOf, priceSurplus, settle, submit } from "./helpers.js";
import type { Chain } from "../../../src/chain/node.js";

/** Alice signs a delegate action to bob; carol relays it. */
function metaTx(chain: Chain, inner: NonDelegateAction[], opts: { nonce?: bigint; maxBlockHeight?: bigint; key?: ReturnType<typeof keyOf>; txReceiver?: string } = {}) {
  const key = opts.key ?? devKeyPair(ALICE);
  const current = chain.at(chain.head()).accessKey(ALICE, formatPublicKey(key.publicKey))?.nonce ?? 0n;
  const d = signDelegateAction(
    {
      senderId: ALICE,
      receiverId: BOB,
      actions: inner,
      nonce: opts.nonce ?? current + 1n,
      maxBlockHeight: opts.maxBlockHeight ?? BigInt(chain.head().height + 100),
      publicKey: key.publicKey,
    },
    key,
  );
  return submit(chain, CAROL, opts.txReceiver ?? ALICE, [d]);
}

const failureOf = (kind: unknown) => ({ Failure: { ActionError: { index: 0, kind } } });

describe("Delegate (meta transactions)", () => {
  it("runs the inner actions as a receipt from the sender, paid by the relayer", async () => {
    const chain = await openChain();
    const [a0, b0, c0] = [balanceOf(chain, ALICE), balanceOf(chain, BOB), balanceOf(chain, CAROL)];
    const start = chain.head().height;
    const hash = metaTx(chain, [{ type: "Transfer", deposit: NEAR }]);
    const s = settle(chain, hash);
    const o = outcomeOf(s);
    expect(o.status).toEqual({ SuccessValue: "" });
    // Each receipt's gas was bought at the purchase price (the inner receipt inherits it) and
    // burnt at the block's: each sends the relayer a gas refund of the price surplus.
    const [delegateReceipt, inner, innerRefund, delegateRefund] = o.receipts_outcome;
    expect(delegateReceipt!.outcome.executor_id).toBe(ALICE);
    expect(chain.blockByHash(delegateReceipt!.block_hash)!.height).toBe(start + 2);
    expect(chain.blockByHash(inner!.block_hash)!.height).toBe(start + 3);
    expect(delegateReceipt!.outcome.receipt_ids).toEqual([inner!.id, delegateRefund!.id]);
    expect(inner!.outcome.receipt_ids).toEqual([innerRefund!.id]);
    for (const [refund, of] of [[delegateRefund!, delegateReceipt!], [innerRefund!, inner!]] as const) {
      expect(chain.receipt(refund.id)).toMatchObject({
        receiver_id: CAROL,
        receipt: { Action: { actions: [{ Transfer: { deposit: priceSurplus(BigInt(of.outcome.gas_burnt)).toString() } }] } },
      });
    }
    expect(inner!.outcome).toMatchObject({ executor_id: BOB, gas_burnt: Number(TRANSFER_GAS), status: { SuccessValue: "" } });
    expect(chain.receipt(inner!.id)).toMatchObject({
      predecessor_id: ALICE,
      receiver_id: BOB,
      receipt: { Action: { signer_id: CAROL, signer_public_key: devKeyPair(CAROL).publicKeyString, gas_price: "1000000000" } },
    });
    // Gas: the relayer burns send fees (incl. the inner ones) at conversion; the delegate
    // receipt burns its execution plus the inner send fees again (prepaid); the inner
    // receipt burns a transfer's execution. Only the price surplus is refunded.
    const send = 108_059_500_000n + 200_000_000_000n + 115_123_062_500n;
    expect(o.transaction_outcome.outcome.gas_burnt).toBe(Number(send));
    expect(delegateReceipt!.outcome.gas_burnt).toBe(Number(108_059_500_000n + 200_000_000_000n + 115_123_062_500n));
    const burnt = BigInt(o.transaction_outcome.outcome.gas_burnt + delegateReceipt!.outcome.gas_burnt + inner!.outcome.gas_burnt) * GAS_PRICE;
    expect(balanceOf(chain, CAROL)).toBe(c0 - NEAR - burnt);
    expect(balanceOf(chain, ALICE)).toBe(a0);
    expect(balanceOf(chain, BOB)).toBe(b0 + NEAR);
    const aliceKey = chain.at(chain.head()).accessKey(ALICE, devKeyPair(ALICE).publicKeyString)!;
    expect(aliceKey.nonce).toBe(1n);
  });

  it("refunds the relayer's deposit when the delegate fails", async () => {
    const chain = await openChain();
    const c0 = balanceOf(chain, CAROL);
    const o = outcomeOf(settle(chain, metaTx(chain, [{ type: "Transfer", deposit: NEAR }], { nonce: 0n })));
    expect(o.status).toEqual(failureOf({ DelegateActionInvalidNonce: { delegate_nonce: 0, ak_nonce: 0 } }));
    const burnt = BigInt(o.transaction_outcome.outcome.gas_burnt + o.receipts_outcome[0]!.outcome.gas_burnt) * GAS_PRICE;
    expect(balanceOf(chain, CAROL)).toBe(c0 - burnt);
  });

  it("checks signature, expiry, sender, key and nonce bound", async () => {
    const chain = await openChain();
    const transfer: NonDelegateAction[] = [{ type: "Transfer", deposit: 1n }];
    const statusOf = (hash: string) => outcomeOf(settle(chain, hash)).status;

    expect(statusOf(metaTx(chain, transfer, { maxBlockHeight: 1n }))).toEqual(failureOf("DelegateActionExpired"));
    expect(statusOf(metaTx(chain, transfer, { txReceiver: BOB }))).toEqual(
      failureOf({ DelegateActionSenderDoesNotMatchTxReceiver: { sender_id: ALICE, receiver_id: BOB } }),
    );
    const stranger = keyOf("stranger");
    expect(statusOf(metaTx(chain, transfer, { key: stranger, nonce: 1n }))).toEqual(
      failureOf({ DelegateActionAccessKeyError: { AccessKeyNotFound: { account_id: ALICE, public_key: formatPublicKey(stranger.publicKey) } } }),
    );
    const huge = 10n ** 15n;
    const o = outcomeOf(settle(chain, metaTx(chain, transfer, { nonce: huge })));
    const height = chain.blockByHash(o.receipts_outcome[0]!.block_hash)!.height;
    expect(o.status).toEqual(failureOf({ DelegateActionNonceTooLarge: { delegate_nonce: 1e15, upper_bound: height * 1_000_000 } }));

    // A signature by another key over the same payload.
    const key = devKeyPair(ALICE);
    const d = signDelegateAction(
      { senderId: ALICE, receiverId: BOB, actions: transfer, nonce: 5n, maxBlockHeight: 1000n, publicKey: key.publicKey },
      devKeyPair(BOB),
    );
    expect(statusOf(submit(chain, CAROL, ALICE, [d]))).toEqual(failureOf("DelegateActionInvalidSignature"));
  });

  it("applies function-call key rules to the sender's key", async () => {
    const chain = await openChain();
    const fc = keyOf("fc");
    settle(chain, submit(chain, ALICE, ALICE, [
      { type: "AddKey", publicKey: fc.publicKey, accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: BOB, methodNames: [] } } } },
    ]));
    const nonce = chain.at(chain.head()).accessKey(ALICE, formatPublicKey(fc.publicKey))!.nonce + 1n;
    const o = outcomeOf(settle(chain, metaTx(chain, [{ type: "Transfer", deposit: 1n }], { key: fc, nonce })));
    expect(o.status).toEqual(failureOf({ DelegateActionAccessKeyError: "RequiresFullAccess" }));
  });
});
