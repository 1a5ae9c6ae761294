import { describe, expect, it } from "vitest";
import { decodeAccessKey, encodeAccessKey, gasKeyInfoOf, type AccessKey } from "@shardkit/primitives/accessKey";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { Chain } from "../../../src/chain/node.js";
import { encodeSignedTransaction, signTransaction, type Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, GAS_PRICE, NEAR, TRANSFER_GAS, balanceOf, keyOf, openChain, outcomeOf, settle, submit } from "./helpers.js";

const GAS = keyOf("gas key (runtime)");

function gasKeyOf(chain: Chain): AccessKey {
  const key = chain.at(chain.head()).accessKey(ALICE, formatPublicKey(GAS.publicKey));
  if (key === undefined) throw new Error("no gas key");
  return key;
}
const keyBalance = (chain: Chain): bigint => gasKeyInfoOf(gasKeyOf(chain).permission)?.balance ?? -1n;

function gasKeyTx(chain: Chain, actions: Action[], nonce: bigint, nonceIndex: number): Uint8Array {
  const tx = {
    version: 1 as const,
    signerId: ALICE,
    publicKey: GAS.publicKey,
    nonce: { kind: "GasKeyNonce" as const, nonce, nonceIndex },
    receiverId: BOB,
    blockHash: chain.head().hashBytes,
    actions,
    nonceMode: "Monotonic" as const,
  };
  return encodeSignedTransaction(signTransaction(tx, GAS));
}

/** A chain where alice has the gas key (2 nonces) funded with `funds`. */
async function chainWithGasKey(funds: bigint): Promise<Chain> {
  const chain = await openChain();
  const add: Action = { type: "AddKey", publicKey: GAS.publicKey, accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces: 2 } } } };
  settle(chain, submit(chain, ALICE, ALICE, [add, { type: "TransferToGasKey", publicKey: GAS.publicKey, deposit: funds }]));
  return chain;
}

describe("gas keys in the runtime", () => {
  it("borsh of the gas-key permissions round-trips (tags 2 and 3)", () => {
    const keys: AccessKey[] = [
      { nonce: 0n, permission: { GasKeyFullAccess: { balance: 5n, numNonces: 1024 } } },
      {
        nonce: 7n,
        permission: {
          GasKeyFunctionCall: { gasKeyInfo: { balance: 2n ** 100n, numNonces: 2 }, functionCall: { allowance: null, receiverId: BOB, methodNames: ["a", "bc"] } },
        },
      },
    ];
    for (const key of keys) expect(decodeAccessKey(encodeAccessKey(key))).toEqual(key);
    // nonce u64 ‖ tag 3 ‖ balance u128 ‖ num_nonces u16 LE: 27 bytes (nearcore min_gas_key_borsh_len).
    const bytes = encodeAccessKey(keys[0]!);
    expect(bytes.length).toBe(27);
    expect([...bytes.subarray(8, 10)]).toEqual([3, 5]);
    expect([...bytes.subarray(25)]).toEqual([0x00, 0x04]);
  });

  it("a gas-key transaction whose deposit the account can no longer pay is included without a receipt (DepositFailed)", async () => {
    const chain = await chainWithGasKey(NEAR);
    const nonce = (BigInt(chain.head().height) - 1n) * 1_000_000n + 1n;
    const all = balanceOf(chain, ALICE);
    // Both pass admission against the head; in the chunk the first leaves the second short.
    const first = chain.submitTransaction(gasKeyTx(chain, [{ type: "Transfer", deposit: all - NEAR }], nonce, 0)).hash;
    const second = chain.submitTransaction(gasKeyTx(chain, [{ type: "Transfer", deposit: 2n * NEAR }], nonce, 1)).hash;
    const keyBefore = keyBalance(chain);
    const failed = outcomeOf(settle(chain, second));
    settle(chain, first);
    expect(failed.status).toEqual({
      Failure: {
        InvalidTxError: {
          NotEnoughBalanceForDeposit: { signer_id: ALICE, balance: NEAR.toString(), cost: (2n * NEAR).toString(), reason: "NotEnoughBalance" },
        },
      },
    });
    expect(failed.transaction_outcome.outcome.receipt_ids).toEqual([]);
    expect(failed.transaction_outcome.outcome.gas_burnt).toBe(Number(TRANSFER_GAS));
    // The key paid the first transfer's gas (net of its refund) and only the second's conversion.
    expect(keyBalance(chain)).toBe(keyBefore - 2n * TRANSFER_GAS * GAS_PRICE - TRANSFER_GAS * GAS_PRICE);
    expect(chain.at(chain.head()).gasKeyNonces(ALICE, formatPublicKey(GAS.publicKey))).toEqual([nonce, nonce]);
    expect(balanceOf(chain, ALICE)).toBe(NEAR);
  });

  it("DeleteAccount burns the gas-key balances, or refuses above 1 NEAR in total (public_key null)", async () => {
    const chain = await chainWithGasKey(NEAR + 1n);
    const refused = outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeleteAccount", beneficiaryId: BOB }])));
    expect(refused.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { GasKeyBalanceTooHigh: { account_id: ALICE, public_key: null, balance: (NEAR + 1n).toString() } } } },
    });
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "WithdrawFromGasKey", publicKey: GAS.publicKey, amount: 2n }]));
    const deleted = outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeleteAccount", beneficiaryId: BOB }])));
    expect(deleted.status).toEqual({ SuccessValue: "" });
    const receipt = deleted.receipts_outcome[0]!.outcome;
    expect(BigInt(receipt.tokens_burnt)).toBe(BigInt(receipt.gas_burnt) * GAS_PRICE + NEAR - 1n);
    expect(chain.at(chain.head()).account(ALICE)).toBeUndefined();
    expect(chain.at(chain.head()).gasKeyNonces(ALICE, formatPublicKey(GAS.publicKey))).toBeUndefined();
  });
});
