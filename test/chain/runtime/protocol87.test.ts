import { describe, expect, it } from "vitest";
import type { Chain } from "../../../src/chain/node.js";
import { InvalidTransactionError } from "../../../src/chain/runtime/InvalidTransactionError.js";
import {
  signDelegateAction,
  signDelegateActionV2,
  type Action,
  type DeterministicAccountStateInit,
  type NonDelegateAction,
} from "../../../src/chain/transaction/index.js";
import { validateActions } from "../../../src/chain/runtime/validateActions.js";
import { runtimeParametersFor } from "../../../src/chain/runtime/parameters.js";
import { deriveDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { call, deploy } from "../vm/deploy.js";
import { PROBE } from "../vm/probeContract.js";
import { contract } from "../vm/wat.js";
import { receivedDataKey } from "../../../src/chain/runtime/runtimeTrieKeys.js";
import { parseCryptoHash } from "../../../src/chain/primitives/cryptoHash.js";
import { ALICE, BOB, CAROL, GAS_PRICE, NEAR, balanceOf, keyOf, openChain, outcomeOf, settle, submit, sumOfBalances } from "./helpers.js";

const GAS = keyOf("gas key (protocol 87)");

/** A chain at `version` where alice has a gas key with 2 nonce slots. */
async function chainAt(version: number): Promise<Chain> {
  const chain = await openChain({ protocolVersion: version });
  const add: Action = {
    type: "AddKey",
    publicKey: GAS.publicKey,
    accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces: 2 } } },
  };
  settle(chain, submit(chain, ALICE, ALICE, [add]));
  settle(chain, submit(chain, ALICE, ALICE, [{ type: "TransferToGasKey", publicKey: GAS.publicKey, deposit: NEAR }]));
  return chain;
}

/** The InvalidTxError a submission is refused with (undefined when it is admitted). */
function refusal(chain: Chain, signerId: string, receiverId: string, actions: Action[]): unknown {
  try {
    submit(chain, signerId, receiverId, actions);
    return undefined;
  } catch (e) {
    if (e instanceof InvalidTransactionError) return e.error;
    throw e;
  }
}

const delegateV2 = (chain: Chain) =>
  signDelegateActionV2(
    {
      senderId: ALICE,
      receiverId: BOB,
      actions: [{ type: "Transfer", deposit: 1n }],
      nonce: { kind: "GasKeyNonce", nonce: chain.at(chain.head()).gasKeyNonces(ALICE, formatPublicKey(GAS.publicKey))![0]! + 1n, nonceIndex: 0 },
      maxBlockHeight: BigInt(chain.head().height + 100),
      publicKey: GAS.publicKey,
    },
    GAS,
  );

const withdrawInDelegate = (chain: Chain) =>
  signDelegateAction(
    {
      senderId: ALICE,
      receiverId: ALICE,
      actions: [{ type: "WithdrawFromGasKey", publicKey: GAS.publicKey, amount: 1n }],
      nonce: chain.at(chain.head()).accessKey(ALICE, devKeyPair(ALICE).publicKeyString)!.nonce + 1n,
      maxBlockHeight: BigInt(chain.head().height + 100),
      publicKey: devKeyPair(ALICE).publicKey,
    },
    devKeyPair(ALICE),
  );

describe("protocol 87 (nearcore 2.14) action validation", () => {
  it("refuses DelegateV2 as a removed protocol feature; 86 runs it", async () => {
    const at86 = await chainAt(86);
    expect(outcomeOf(settle(at86, submit(at86, CAROL, ALICE, [delegateV2(at86)]))).status).toEqual({ SuccessValue: "" });
    const at87 = await chainAt(87);
    expect(refusal(at87, CAROL, ALICE, [delegateV2(at87)])).toEqual({
      ActionsValidation: { RemovedProtocolFeature: { protocol_feature: "DelegateV2", version: 87 } },
    });
  });

  it("refuses a WithdrawFromGasKey inside a Delegate; 86 runs it", async () => {
    const at86 = await chainAt(86);
    expect(outcomeOf(settle(at86, submit(at86, CAROL, ALICE, [withdrawInDelegate(at86)]))).status).toEqual({ SuccessValue: "" });
    const at87 = await chainAt(87);
    expect(refusal(at87, CAROL, ALICE, [withdrawInDelegate(at87)])).toEqual({ ActionsValidation: "WithdrawFromGasKeyNotAllowedInDelegate" });
    // Sent directly by the account, the withdrawal stays allowed.
    expect(outcomeOf(settle(at87, submit(at87, ALICE, ALICE, [{ type: "WithdrawFromGasKey", publicKey: GAS.publicKey, amount: 1n }]))).status).toEqual({
      SuccessValue: "",
    });
  });

  it("refuses a FunctionCall with an empty method name; 86 admits it and the VM fails it", async () => {
    const at86 = await openChain({ protocolVersion: 86 });
    deploy(at86, BOB, PROBE);
    expect(outcomeOf(settle(at86, submit(at86, ALICE, BOB, [call("")]))).status).toEqual({
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { MethodResolveError: "MethodEmptyName" } } } },
    });
    const at87 = await openChain({ protocolVersion: 87 });
    deploy(at87, BOB, PROBE);
    expect(refusal(at87, ALICE, BOB, [call("")])).toEqual({ ActionsValidation: "FunctionCallEmptyMethodName" });
  });
});

describe("protocol 87 RemoveGasRewards", () => {
  it("the called contract earns no share of the gas its code burnt (86: 3/10)", async () => {
    for (const [version, share] of [
      [86, (vm: bigint) => (vm * 3n) / 10n],
      [87, () => 0n],
    ] as const) {
      const chain = await openChain({ protocolVersion: version });
      deploy(chain, BOB, PROBE);
      const b0 = balanceOf(chain, BOB);
      const o = outcomeOf(settle(chain, submit(chain, CAROL, BOB, [call("write_then_panic")])));
      const r = o.receipts_outcome[0]!;
      const exec = 108_059_500_000n + 780_000_000_000n + 2_235_934n * BigInt("write_then_panic".length);
      const vmBurnt = BigInt(r.outcome.gas_burnt) - exec;
      expect(vmBurnt).toBeGreaterThan(0n);
      expect(balanceOf(chain, BOB)).toBe(b0 + share(vmBurnt) * GAS_PRICE);
      // The reward is either credited or burnt: the supply accounts for it either way.
      expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
    }
  });
});

describe("receipt-wide action caps", () => {
  const stateInit = (entries: number): DeterministicAccountStateInit => ({
    version: "V1",
    code: { kind: "AccountId", accountId: ALICE },
    data: Array.from({ length: entries }, (_, i) => [Buffer.from(`k${String(i).padStart(5, "0")}`), Buffer.from("v")] as const),
  });

  it("from 87, the state inits of one receipt carry at most 1,500 entries in all, delegated ones included", () => {
    const s = stateInit(800);
    const receiver = deriveDeterministicAccountId(s);
    const twice: Action[] = [
      { type: "DeterministicStateInit", stateInit: s, deposit: 0n },
      { type: "DeterministicStateInit", stateInit: s, deposit: 0n },
    ];
    expect(validateActions(runtimeParametersFor(86), twice, receiver, 86)).toBeUndefined();
    const error = { TotalNumberOfStateInitEntriesExceeded: { number_of_entries: 1600, limit: 1500 } };
    expect(validateActions(runtimeParametersFor(87), twice, receiver, 87)).toEqual(error);
    expect(validateActions(runtimeParametersFor(87), twice.slice(1), receiver, 87)).toBeUndefined();
    const delegated = signDelegateAction(
      { senderId: ALICE, receiverId: receiver, actions: [twice[0] as NonDelegateAction], nonce: 1n, maxBlockHeight: 10n, publicKey: devKeyPair(ALICE).publicKey },
      devKeyPair(ALICE),
    );
    expect(validateActions(runtimeParametersFor(87), [delegated, twice[1]!], receiver, 87)).toEqual(error);
  });

  it("a receipt carries at most 10 deploy actions (DeployContract and DeployGlobalContract)", () => {
    const code = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
    const deploys: Action[] = [
      ...Array.from({ length: 5 }, (): Action => ({ type: "DeployContract", code })),
      ...Array.from({ length: 5 }, (): Action => ({ type: "DeployGlobalContract", code, deployMode: "CodeHash" })),
    ];
    for (const version of [86, 87]) {
      expect(validateActions(runtimeParametersFor(version), deploys, ALICE, version)).toBeUndefined();
      expect(validateActions(runtimeParametersFor(version), [...deploys, { type: "DeployContract", code }], ALICE, version)).toEqual({
        TotalNumberOfDeployActionsExceeded: { number_of_deploy_actions: 11, limit: 10 },
      });
    }
  });
});

/** `fan(n)`: two promises to its own `big(n)` (returns n zero bytes), joined, then `done` (returns "ok"). */
const FAN = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "current_account_id" (func $current (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "promise_create" (func $promise_create (param i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_then" (func $promise_then (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
   (import "env" "promise_and" (func $promise_and (param i64 i64) (result i64)))
   (import "env" "promise_return" (func $promise_return (param i64)))`,
  `(data (i32.const 16) "big")
   (data (i32.const 24) "done")
   (data (i32.const 32) "ok")
   (func (export "big")
     (call $input (i64.const 0))
     (call $read_register (i64.const 0) (i64.const 0))
     (call $value_return (i64.load (i32.const 0)) (i64.const 4096)))
   (func (export "fan")
     (call $input (i64.const 0))
     (call $read_register (i64.const 0) (i64.const 0))
     (call $current (i64.const 1))
     (call $read_register (i64.const 1) (i64.const 64))
     (i64.store (i32.const 600) (call $promise_create (call $register_len (i64.const 1)) (i64.const 64) (i64.const 3) (i64.const 16)
       (i64.const 8) (i64.const 0) (i64.const 512) (i64.const 100000000000000)))
     (i64.store (i32.const 608) (call $promise_create (call $register_len (i64.const 1)) (i64.const 64) (i64.const 3) (i64.const 16)
       (i64.const 8) (i64.const 0) (i64.const 512) (i64.const 100000000000000)))
     (call $promise_return (call $promise_then (call $promise_and (i64.const 600) (i64.const 2))
       (call $register_len (i64.const 1)) (i64.const 64) (i64.const 4) (i64.const 24)
       (i64.const 0) (i64.const 0) (i64.const 512) (i64.const 20000000000000))))
   (func (export "done") (call $value_return (i64.const 2) (i64.const 32)))`,
);

describe("protocol 87 ReceiptPromiseInputSizeLimit", () => {
  const fan = (chain: Chain, bytesEach: number) => {
    const n = Buffer.alloc(8);
    n.writeBigUInt64LE(BigInt(bytesEach));
    return outcomeOf(settle(chain, submit(chain, CAROL, BOB, [call("fan", n, 300n * 10n ** 12n)])));
  };

  it("a callback whose promise results total more than 4,194,944 bytes fails before running; 86 runs it", async () => {
    const at86 = await openChain({ protocolVersion: 86 });
    deploy(at86, BOB, FAN);
    expect(fan(at86, 2_100_000).status).toEqual({ SuccessValue: Buffer.from("ok").toString("base64") });

    const at87 = await openChain({ protocolVersion: 87 });
    deploy(at87, BOB, FAN);
    const b0 = balanceOf(at87, BOB);
    // Each input is its Borsh ReceivedData: 1 + 4 + 2,100,000 bytes.
    const o = fan(at87, 2_100_000);
    expect(o.status).toEqual({
      Failure: { ActionError: { index: null, kind: { TotalPromiseInputSizeExceeded: { size: 4_200_010, limit: 4_194_944 } } } },
    });
    const callback = o.receipts_outcome.find((r) => r.outcome.status !== undefined && "Failure" in (r.outcome.status as object))!;
    // Only the receipt's own execution fee is burnt: no action ran.
    expect(callback.outcome.gas_burnt).toBe(108_059_500_000);
    expect(callback.outcome.logs).toEqual([]);
    // The data it waited for is dropped from the state all the same.
    const waited = (at87.receipt(callback.id)!.receipt as { Action: { input_data_ids: string[] } }).Action.input_data_ids;
    expect(waited).toHaveLength(2);
    for (const id of waited) expect(at87.at(at87.head()).shard(at87.shardOf(BOB)).get(receivedDataKey(BOB, parseCryptoHash(id)))).toBeUndefined();
    expect(balanceOf(at87, BOB)).toBe(b0);
    expect(sumOfBalances(at87)).toBe(BigInt(at87.head().view.header.total_supply));
    // Just under the limit, the callback runs.
    expect(fan(at87, 2_000_000).status).toEqual({ SuccessValue: Buffer.from("ok").toString("base64") });
  });
});
