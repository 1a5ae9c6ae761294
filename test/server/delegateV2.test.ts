import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { signDelegateActionV2, type Action } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, NEAR, keyOf, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "./harness.js";

// DelegateV2 (protocol 85) over real HTTP: alice signs a meta transaction with a gas-key
// nonce, carol relays it with send_tx; the views show nearcore's ActionView, the nonce slot
// moves, and receipt outcomes carry ExecutionMetadata V4 (every result is checked against
// the spec by the harness).
const GAS = keyOf("gas key (delegate v2 over rpc)");
const GAS_KEY = formatPublicKey(GAS.publicKey);

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const send = (signed: Uint8Array) => rpcResult(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "FINAL" });
const nonces = async (): Promise<number[]> =>
  (await rpcResult(url, "EXPERIMENTAL_view_gas_key_nonces", { finality: "optimistic", account_id: ALICE, public_key: GAS_KEY })).nonces;

describe("DelegateV2 over JSON-RPC", () => {
  it("a relayed DelegateV2 with a gas-key nonce runs its inner actions and advances that nonce slot", async () => {
    const add: Action = { type: "AddKey", publicKey: GAS.publicKey, accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces: 2 } } } };
    expect((await send(signedTx(service.chain, ALICE, ALICE, [add]))).status).toEqual({ SuccessValue: "" });
    const [n0, n1] = await nonces();
    const bobBefore = BigInt((await rpcResult(url, "query", { request_type: "view_account", finality: "final", account_id: BOB })).amount);
    const height = (await rpcResult(url, "block", { finality: "final" })).header.height;
    const delegate = signDelegateActionV2(
      {
        senderId: ALICE,
        receiverId: BOB,
        actions: [{ type: "Transfer", deposit: NEAR }],
        nonce: { kind: "GasKeyNonce", nonce: BigInt(n0!) + 1n, nonceIndex: 0 },
        maxBlockHeight: BigInt(height + 100),
        publicKey: GAS.publicKey,
      },
      GAS,
    );
    const r = await send(signedTx(service.chain, CAROL, ALICE, [delegate]));
    expect(r.status).toEqual({ SuccessValue: "" });
    expect(r.transaction.actions).toEqual([
      {
        DelegateV2: {
          delegate_action: {
            V2: {
              sender_id: ALICE,
              receiver_id: BOB,
              actions: [{ Transfer: { deposit: NEAR.toString() } }],
              nonce: { GasKeyNonce: { nonce: n0! + 1, nonce_index: 0 } },
              max_block_height: height + 100,
              public_key: GAS_KEY,
            },
          },
          signature: expect.stringMatching(/^ed25519:/),
        },
      },
    ]);
    expect(await nonces()).toEqual([n0! + 1, n1]);
    const bobAfter = BigInt((await rpcResult(url, "query", { request_type: "view_account", finality: "final", account_id: BOB })).amount);
    expect(bobAfter - bobBefore).toBe(NEAR);
    // Receipt outcomes: metadata V4, one contract entry per action (neither account has code).
    const [onAlice, onBob] = r.receipts_outcome;
    expect(onAlice.outcome.metadata).toEqual({ version: 4, gas_profile: [], contracts: [null] });
    expect(onBob.outcome.metadata).toEqual({ version: 4, gas_profile: [], contracts: [null] });
    expect(r.transaction_outcome.outcome.metadata).toEqual({ version: 1, gas_profile: null });
    // The transaction history sees a relayed transaction: ALICE signed it, BOB really received it.
    await service.historyIndexer.whenIndexed(service.chain.head().height);
    const [record] = await service.historyIndexer.store.transactions([r.transaction.hash]);
    expect(record?.row).toMatchObject({ signer_id: CAROL, is_relayed: true, real_signer_id: ALICE, real_receiver_id: BOB });
  });

  it("EXPERIMENTAL_tx_status shows the delegate receipt and a call's V4 metadata names the contract", async () => {
    const kv = "kv.test.near";
    const code = await rpcResult(url, "query", { request_type: "view_account", finality: "final", account_id: kv });
    const call: Action = { type: "FunctionCall", methodName: "set", args: Buffer.from('{"key":"a","value":"b"}'), gas: 30_000_000_000_000n, deposit: 0n };
    const r = await send(signedTx(service.chain, CAROL, kv, [call]));
    expect(r.receipts_outcome[0].outcome.metadata).toMatchObject({ version: 4, contracts: [{ local: code.code_hash }] });
    const s = await rpcResult(url, "EXPERIMENTAL_tx_status", { tx_hash: r.transaction.hash, sender_account_id: CAROL, wait_until: "FINAL" });
    expect(s.receipts_outcome[0].outcome.metadata).toEqual(r.receipts_outcome[0].outcome.metadata);
  });
});
