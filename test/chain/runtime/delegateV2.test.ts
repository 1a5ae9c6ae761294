import { describe, expect, it } from "vitest";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import {
  signDelegateAction,
  signDelegateActionV2,
  type Action,
  type NonDelegateAction,
  type TransactionNonce,
} from "../../../src/chain/transaction/index.js";
import type { Chain } from "../../../src/chain/node.js";
import { ALICE, BOB, CAROL, GAS_PRICE, NEAR, TRANSFER_GAS, balanceOf, keyOf, openChain, outcomeOf, settle, submit } from "./helpers.js";

const GAS = keyOf("gas key (delegate v2)");
const failureOf = (kind: unknown) => ({ Failure: { ActionError: { index: 0, kind } } });

/** A chain where alice has a gas key with 2 nonce slots (and her dev key, a full-access key). */
async function chainWithGasKey(): Promise<Chain> {
  const chain = await openChain();
  const add: Action = {
    type: "AddKey",
    publicKey: GAS.publicKey,
    accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces: 2 } } },
  };
  settle(chain, submit(chain, ALICE, ALICE, [add]));
  return chain;
}

const slots = (chain: Chain): bigint[] => chain.at(chain.head()).gasKeyNonces(ALICE, formatPublicKey(GAS.publicKey))!;

/** Alice signs a DelegateV2 to bob with `key`; carol relays it. */
function metaTxV2(
  chain: Chain,
  inner: NonDelegateAction[],
  nonce: TransactionNonce,
  opts: { key?: ReturnType<typeof keyOf>; maxBlockHeight?: bigint } = {},
): string {
  const key = opts.key ?? GAS;
  const d = signDelegateActionV2(
    {
      senderId: ALICE,
      receiverId: BOB,
      actions: inner,
      nonce,
      maxBlockHeight: opts.maxBlockHeight ?? BigInt(chain.head().height + 100),
      publicKey: key.publicKey,
    },
    key,
  );
  return submit(chain, CAROL, ALICE, [d]);
}

describe("DelegateV2 (meta transactions with gas-key nonces, protocol 85)", () => {
  it("runs the inner actions from the sender, paid by the relayer, consuming one gas-key nonce slot", async () => {
    const chain = await chainWithGasKey();
    const [a0, b0, c0] = [balanceOf(chain, ALICE), balanceOf(chain, BOB), balanceOf(chain, CAROL)];
    const [slot0, slot1] = slots(chain);
    const hash = metaTxV2(chain, [{ type: "Transfer", deposit: NEAR }], { kind: "GasKeyNonce", nonce: slot1! + 7n, nonceIndex: 1 });
    const o = outcomeOf(settle(chain, hash));
    expect(o.status).toEqual({ SuccessValue: "" });
    const [delegateReceipt, inner] = o.receipts_outcome;
    expect(delegateReceipt!.outcome.executor_id).toBe(ALICE);
    expect(inner!.outcome).toMatchObject({ executor_id: BOB, gas_burnt: Number(TRANSFER_GAS), status: { SuccessValue: "" } });
    expect(chain.receipt(inner!.id)).toMatchObject({
      predecessor_id: ALICE,
      receiver_id: BOB,
      receipt: { Action: { signer_id: CAROL, signer_public_key: devKeyPair(CAROL).publicKeyString } },
    });
    // The same fees as a Delegate: the relayer's conversion burns the receipt creation, the
    // delegate send fee and the inner send fees; the delegate receipt burns its execution
    // and the prepaid inner send fees.
    const send = 108_059_500_000n + 200_000_000_000n + 115_123_062_500n;
    expect(o.transaction_outcome.outcome.gas_burnt).toBe(Number(send));
    expect(delegateReceipt!.outcome.gas_burnt).toBe(Number(108_059_500_000n + 200_000_000_000n + 115_123_062_500n));
    const burnt = BigInt(o.transaction_outcome.outcome.gas_burnt + delegateReceipt!.outcome.gas_burnt + inner!.outcome.gas_burnt) * GAS_PRICE;
    expect(balanceOf(chain, CAROL)).toBe(c0 - NEAR - burnt);
    expect(balanceOf(chain, ALICE)).toBe(a0);
    expect(balanceOf(chain, BOB)).toBe(b0 + NEAR);
    // Only the named slot moved; the key's own nonce stays 0.
    expect(slots(chain)).toEqual([slot0, slot1! + 7n]);
    expect(chain.at(chain.head()).accessKey(ALICE, formatPublicKey(GAS.publicKey))!.nonce).toBe(0n);
    // The transaction view shows the action as nearcore's ActionView does.
    const tx = o.transaction as { actions: unknown[] };
    expect(tx.actions[0]).toMatchObject({
      DelegateV2: {
        delegate_action: {
          V2: { sender_id: ALICE, receiver_id: BOB, nonce: { GasKeyNonce: { nonce: Number(slot1! + 7n), nonce_index: 1 } } },
        },
      },
    });
  });

  it("accepts a plain nonce from an access key, like a Delegate", async () => {
    const chain = await openChain();
    const key = devKeyPair(ALICE);
    const current = chain.at(chain.head()).accessKey(ALICE, key.publicKeyString)!.nonce;
    const o = outcomeOf(settle(chain, metaTxV2(chain, [{ type: "Transfer", deposit: 1n }], { kind: "Nonce", nonce: current + 1n }, { key })));
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(chain.at(chain.head()).accessKey(ALICE, key.publicKeyString)!.nonce).toBe(current + 1n);
  });

  it("checks the key kind, the nonce slot, the nonce and the signature", async () => {
    const chain = await chainWithGasKey();
    const transfer: NonDelegateAction[] = [{ type: "Transfer", deposit: 1n }];
    const statusOf = (hash: string) => outcomeOf(settle(chain, hash)).status;
    const [slot0] = slots(chain);

    // A plain nonce with a gas key, and a gas-key nonce with an access key.
    expect(statusOf(metaTxV2(chain, transfer, { kind: "Nonce", nonce: slot0! + 1n }))).toEqual(
      failureOf({ DelegateActionAccessKeyError: "DelegateActionRequiresNonGasKey" }),
    );
    expect(statusOf(metaTxV2(chain, transfer, { kind: "GasKeyNonce", nonce: 5n, nonceIndex: 0 }, { key: devKeyPair(ALICE) }))).toEqual(
      failureOf({ DelegateActionAccessKeyError: "DelegateActionRequiresGasKey" }),
    );
    expect(statusOf(metaTxV2(chain, transfer, { kind: "GasKeyNonce", nonce: slot0! + 1n, nonceIndex: 2 }))).toEqual(
      failureOf({ DelegateActionInvalidNonceIndex: { nonce_index: 2, num_nonces: 2 } }),
    );
    expect(statusOf(metaTxV2(chain, transfer, { kind: "GasKeyNonce", nonce: slot0!, nonceIndex: 0 }))).toEqual(
      failureOf({ DelegateActionInvalidNonce: { delegate_nonce: Number(slot0!), ak_nonce: Number(slot0!) } }),
    );
    expect(statusOf(metaTxV2(chain, transfer, { kind: "GasKeyNonce", nonce: slot0! + 1n, nonceIndex: 0 }, { maxBlockHeight: 1n }))).toEqual(
      failureOf("DelegateActionExpired"),
    );
    // A Delegate (V1) signed by a gas key is refused too: its nonce is a plain one.
    const v1 = signDelegateAction(
      { senderId: ALICE, receiverId: BOB, actions: transfer, nonce: slot0! + 1n, maxBlockHeight: 10_000n, publicKey: GAS.publicKey },
      GAS,
    );
    expect(statusOf(submit(chain, CAROL, ALICE, [v1]))).toEqual(failureOf({ DelegateActionAccessKeyError: "DelegateActionRequiresNonGasKey" }));
    // A V2 signature must cover the V2 message (prefix 2^30+611): a V1-style signature fails.
    const forged = signDelegateActionV2(
      {
        senderId: ALICE,
        receiverId: BOB,
        actions: transfer,
        nonce: { kind: "GasKeyNonce", nonce: slot0! + 1n, nonceIndex: 0 },
        maxBlockHeight: 10_000n,
        publicKey: GAS.publicKey,
      },
      GAS,
    );
    const tampered = { ...forged, signature: v1.signature };
    expect(statusOf(submit(chain, CAROL, ALICE, [tampered]))).toEqual(failureOf("DelegateActionInvalidSignature"));
    expect(slots(chain)[0]).toBe(slot0);
  });

  it("a function-call key's deposit error ends the check without consuming the nonce (FixDelegateActionDepositWithFunctionCallError)", async () => {
    const chain = await openChain();
    const fc = keyOf("fc (delegate v2)");
    settle(chain, submit(chain, ALICE, ALICE, [
      { type: "AddKey", publicKey: fc.publicKey, accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: CAROL, methodNames: [] } } } },
    ]));
    const nonce = chain.at(chain.head()).accessKey(ALICE, formatPublicKey(fc.publicKey))!.nonce;
    const call: NonDelegateAction = { type: "FunctionCall", methodName: "m", args: new Uint8Array(), gas: 10n ** 12n, deposit: 1n };
    // The receiver (bob) also mismatches the key's (carol): before protocol 85 that later
    // error replaced DepositWithFunctionCall.
    const o = outcomeOf(settle(chain, metaTxV2(chain, [call], { kind: "Nonce", nonce: nonce + 1n }, { key: fc })));
    expect(o.status).toEqual(failureOf({ DelegateActionAccessKeyError: "DepositWithFunctionCall" }));
    expect(chain.at(chain.head()).accessKey(ALICE, formatPublicKey(fc.publicKey))!.nonce).toBe(nonce);
  });

  it("is validated like a Delegate: at most one per transaction", async () => {
    const chain = await chainWithGasKey();
    const [slot0] = slots(chain);
    const d = signDelegateActionV2(
      {
        senderId: ALICE,
        receiverId: BOB,
        actions: [],
        nonce: { kind: "GasKeyNonce", nonce: slot0! + 1n, nonceIndex: 0 },
        maxBlockHeight: 10_000n,
        publicKey: GAS.publicKey,
      },
      GAS,
    );
    expect(() => submit(chain, CAROL, ALICE, [d, d])).toThrow(/DelegateActionMustBeOnlyOne/);
  });
});
