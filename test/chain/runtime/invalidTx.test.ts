import { describe, expect, it } from "vitest";
import { InvalidTransactionError, TransactionDecodeError, type Chain } from "../../../src/chain/node.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { checkValidityPeriod } from "../../../src/chain/runtime/checkValidityPeriod.js";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../../src/chain/runtime/parameters.js";
import { validateTransaction } from "../../../src/chain/runtime/validateTransaction.js";
import {
  encodeSignedTransaction,
  secp256k1FromSecret,
  signDelegateAction,
  signTransaction,
  transactionHash,
  type Action,
  type DecodedSignedTransaction,
} from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, GAS_PRICE, NEAR, PURCHASE_PRICE, TRANSFER_GAS, balanceOf, keyOf, openChain, settle, signedTx, submit } from "./helpers.js";

function refusal(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    if (e instanceof InvalidTransactionError) return e.error;
    throw e;
  }
  throw new Error("the transaction was accepted");
}

const transfer = (deposit: bigint): Extract<Action, { type: "Transfer" }> => ({ type: "Transfer", deposit });
const call = (methodName: string, gas = 10n ** 13n, deposit = 0n): Action => ({
  type: "FunctionCall",
  methodName,
  args: new Uint8Array(0),
  gas,
  deposit,
});

/** Adds a function-call key to alice and returns it. */
async function withFunctionCallKey(allowance: bigint | null, methodNames: string[] = ["m1"]): Promise<{ chain: Chain; key: ReturnType<typeof keyOf> }> {
  const chain = await openChain();
  const key = keyOf("fc");
  settle(
    chain,
    submit(chain, ALICE, ALICE, [
      { type: "AddKey", publicKey: key.publicKey, accessKey: { nonce: 0n, permission: { FunctionCall: { allowance, receiverId: BOB, methodNames } } } },
    ]),
  );
  return { chain, key };
}

describe("InvalidTxError at submission", () => {
  it("InvalidNonce: not above the key's state nonce; pooled ones land in nonce order, a repeat is dropped", async () => {
    const chain = await openChain();
    expect(refusal(() => submit(chain, ALICE, BOB, [transfer(1n)], { nonce: 0n }))).toEqual({ InvalidNonce: { tx_nonce: 0, ak_nonce: 0 } });
    // Sent out of order before a block, as parallel clients do: both are accepted (nearcore
    // checks against state only) and the block takes them by nonce.
    const five = submit(chain, ALICE, BOB, [transfer(1n)], { nonce: 5n });
    const four = submit(chain, ALICE, BOB, [transfer(2n)], { nonce: 4n });
    const repeat = submit(chain, ALICE, BOB, [transfer(3n)], { nonce: 5n });
    chain.produceBlock();
    expect(chain.transactionStatus(four)?.finalExecutionStatus).not.toBe("NONE");
    expect(chain.transactionStatus(five)?.finalExecutionStatus).not.toBe("NONE");
    expect(chain.transactionStatus(repeat)).toBeUndefined();
    expect(chain.droppedTransaction(repeat)).toEqual({ InvalidNonce: { tx_nonce: 5, ak_nonce: 5 } });
    expect(chain.at(chain.head()).accessKey(ALICE, devKeyPair(ALICE).publicKeyString)!.nonce).toBe(5n);
    expect(refusal(() => submit(chain, ALICE, BOB, [transfer(2n)], { nonce: 5n }))).toEqual({ InvalidNonce: { tx_nonce: 5, ak_nonce: 5 } });
  });

  it("NonceTooLarge: accepted at submission as nearcore does, dropped at inclusion (at or above the block's height × 10^6)", async () => {
    const chain = await openChain();
    chain.produceBlock();
    const upper = (chain.head().height + 1) * 1_000_000;
    const hash = submit(chain, ALICE, BOB, [transfer(1n)], { nonce: BigInt(upper) });
    expect(chain.droppedTransaction(hash)).toBeUndefined();
    chain.produceBlock();
    expect(chain.droppedTransaction(hash)).toEqual({ NonceTooLarge: { tx_nonce: upper, upper_bound: upper } });
    expect(chain.transactionStatus(hash)).toBeUndefined();
    const largest = submit(chain, ALICE, BOB, [transfer(1n)], { nonce: BigInt(upper + 999_999) }); // below the next block's bound
    chain.produceBlock();
    expect(chain.droppedTransaction(largest)).toBeUndefined();
    expect(chain.transactionStatus(largest)).toBeDefined();
  });

  it("Expired: an unknown block hash, or one older than the validity period", async () => {
    const chain = await openChain({ transactionValidityPeriod: 2 });
    expect(refusal(() => submit(chain, ALICE, BOB, [transfer(1n)], { blockHash: sha256(new Uint8Array([1])) }))).toBe("Expired");
    const genesis = chain.genesisBlock.hashBytes;
    chain.produceBlock();
    chain.produceBlock();
    submit(chain, ALICE, BOB, [transfer(1n)], { blockHash: genesis }); // head 2 ≤ 0 + 2
    chain.produceBlock();
    expect(refusal(() => submit(chain, ALICE, BOB, [transfer(2n)], { blockHash: genesis }))).toBe("Expired");
  });

  it("InvalidChain: a known block that is not on the canonical chain", () => {
    const chain = { heightOf: (h: string) => (h === "fork" || h === "main" ? 5 : undefined), hashAt: () => "main" };
    expect(checkValidityPeriod(chain, 6, "fork", 10)).toBe("InvalidChain");
    expect(checkValidityPeriod(chain, 6, "main", 10)).toBeUndefined();
    expect(checkValidityPeriod(chain, 15, "main", 10)).toBeUndefined(); // 15 ≤ 5 + 10
    expect(checkValidityPeriod(chain, 16, "main", 10)).toBe("Expired");
    expect(checkValidityPeriod(chain, 16, "fork", 10)).toBe("Expired"); // expiry is checked first
    expect(checkValidityPeriod(chain, 6, "unknown", 10)).toBe("Expired");
  });

  it("InvalidSignature: signed by another key", async () => {
    const chain = await openChain();
    const tx = {
      version: 0 as const,
      signerId: ALICE,
      publicKey: devKeyPair(ALICE).publicKey,
      nonce: 1n,
      receiverId: BOB,
      blockHash: chain.head().hashBytes,
      actions: [transfer(1n)],
    };
    const forged = { ...signTransaction(tx, devKeyPair(BOB)), transaction: tx };
    expect(refusal(() => chain.submitTransaction(encodeSignedTransaction(forged)))).toBe("InvalidSignature");
  });

  it("NotEnoughBalance: cost = deposit + send gas at the gas price + receipt gas at the purchase price", async () => {
    const chain = await openChain();
    const balance = balanceOf(chain, ALICE);
    const cost = balance + TRANSFER_GAS * GAS_PRICE + TRANSFER_GAS * PURCHASE_PRICE;
    expect(refusal(() => submit(chain, ALICE, BOB, [transfer(balance)]))).toEqual({
      NotEnoughBalance: { signer_id: ALICE, balance: balance.toString(), cost: cost.toString() },
    });
  });

  it("LackBalanceForState: the signer could not pay for its storage afterwards", async () => {
    const chain = await openChain();
    const kv = "kv.test.near";
    const account = chain.at(chain.head()).account(kv)!;
    expect(account.storageUsage).toBeGreaterThan(770);
    const deposit = 99n * NEAR;
    const after = account.amount - deposit - TRANSFER_GAS * GAS_PRICE - TRANSFER_GAS * PURCHASE_PRICE;
    const required = BigInt(account.storageUsage) * 10n ** 19n;
    expect(refusal(() => submit(chain, kv, BOB, [transfer(deposit)]))).toEqual({
      LackBalanceForState: { signer_id: kv, amount: (required - after).toString() },
    });
  });

  it("SignerDoesNotExist", async () => {
    const chain = await openChain();
    const key = keyOf("nobody");
    expect(refusal(() => submit(chain, "nobody.test.near", BOB, [transfer(1n)], { key, nonce: 1n }))).toEqual({
      SignerDoesNotExist: { signer_id: "nobody.test.near" },
    });
  });

  it("InvalidSignerId / InvalidReceiverId (only a hand-built transaction can carry an invalid id)", async () => {
    const base = {
      version: 0 as const,
      publicKey: devKeyPair(ALICE).publicKey,
      nonce: 1n,
      blockHash: new Uint8Array(32),
      actions: [transfer(1n)],
    };
    const decoded = (signerId: string, receiverId: string): DecodedSignedTransaction => {
      const transaction = { ...base, signerId, receiverId };
      return { transaction, signature: { keyType: 0, data: new Uint8Array(64) }, hash: new Uint8Array(32), size: 100 };
    };
    expect(validateTransaction(NEARCORE_RUNTIME_PARAMETERS, decoded("Alice!", BOB), 85)).toEqual({ InvalidSignerId: { signer_id: "Alice!" } });
    expect(validateTransaction(NEARCORE_RUNTIME_PARAMETERS, decoded(ALICE, "-bob"), 85)).toEqual({ InvalidReceiverId: { receiver_id: "-bob" } });
  });

  describe("InvalidAccessKeyError", () => {
    it("AccessKeyNotFound", async () => {
      const chain = await openChain();
      const key = keyOf("stranger");
      expect(refusal(() => submit(chain, ALICE, BOB, [transfer(1n)], { key, nonce: 1n }))).toEqual({
        InvalidAccessKeyError: { AccessKeyNotFound: { account_id: ALICE, public_key: formatPublicKey(key.publicKey) } },
      });
    });

    it("RequiresFullAccess, DepositWithFunctionCall, ReceiverMismatch, MethodNameMismatch", async () => {
      const { chain, key } = await withFunctionCallKey(NEAR);
      const opts = { key };
      expect(refusal(() => submit(chain, ALICE, BOB, [transfer(1n)], opts))).toEqual({ InvalidAccessKeyError: "RequiresFullAccess" });
      expect(refusal(() => submit(chain, ALICE, BOB, [call("m1"), call("m1")], opts))).toEqual({ InvalidAccessKeyError: "RequiresFullAccess" });
      expect(refusal(() => submit(chain, ALICE, BOB, [call("m1", 10n ** 13n, 1n)], opts))).toEqual({ InvalidAccessKeyError: "DepositWithFunctionCall" });
      expect(refusal(() => submit(chain, ALICE, "carol.test.near", [call("m1")], opts))).toEqual({
        InvalidAccessKeyError: { ReceiverMismatch: { tx_receiver: "carol.test.near", ak_receiver: BOB } },
      });
      expect(refusal(() => submit(chain, ALICE, BOB, [call("m2")], opts))).toEqual({
        InvalidAccessKeyError: { MethodNameMismatch: { method_name: "m2" } },
      });
      submit(chain, ALICE, BOB, [call("m1")], opts);
    });

    it("NotEnoughAllowance (checked before the function-call rules)", async () => {
      const { chain, key } = await withFunctionCallKey(1000n);
      const gas = 10n ** 13n;
      const bytes = 2n; // "m1" + empty args
      const send = 108_059_500_000n + 200_000_000_000n + 47_683_715n * bytes;
      const exec = 108_059_500_000n + 780_000_000_000n + 2_235_934n * bytes;
      const cost = send * GAS_PRICE + (exec + gas) * PURCHASE_PRICE;
      expect(refusal(() => submit(chain, ALICE, BOB, [call("m1", gas)], { key }))).toEqual({
        InvalidAccessKeyError: {
          NotEnoughAllowance: { account_id: ALICE, public_key: formatPublicKey(key.publicKey), allowance: "1000", cost: cost.toString() },
        },
      });
      expect(refusal(() => submit(chain, ALICE, BOB, [transfer(1n)], { key }))).toMatchObject({ InvalidAccessKeyError: { NotEnoughAllowance: {} } });
    });
  });

  describe("ActionsValidation", () => {
    const cases: [string, Action[], unknown][] = [
      ["DeleteActionMustBeFinal", [{ type: "DeleteAccount", beneficiaryId: BOB }, transfer(1n)], "DeleteActionMustBeFinal"],
      ["TotalPrepaidGasExceeded", [call("m", 10n ** 15n), call("m", 1n)], { TotalPrepaidGasExceeded: { total_prepaid_gas: 1e15 + 1, limit: 1e15 } }],
      ["IntegerOverflow", [call("m", 2n ** 63n), call("m", 2n ** 63n)], "IntegerOverflow"],
      ["FunctionCallZeroAttachedGas", [call("m", 0n)], "FunctionCallZeroAttachedGas"],
      ["FunctionCallMethodNameLengthExceeded", [call("x".repeat(257))], { FunctionCallMethodNameLengthExceeded: { length: 257, limit: 256 } }],
      [
        "TotalNumberOfActionsExceeded",
        Array.from({ length: 101 }, () => transfer(1n)),
        { TotalNumberOfActionsExceeded: { total_number_of_actions: 101, limit: 100 } },
      ],
      [
        "AddKeyMethodNameLengthExceeded",
        [{ type: "AddKey", publicKey: keyOf("k").publicKey, accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: BOB, methodNames: ["y".repeat(257)] } } } }],
        { AddKeyMethodNameLengthExceeded: { length: 257, limit: 256 } },
      ],
      [
        "AddKeyMethodNamesNumberOfBytesExceeded",
        [{ type: "AddKey", publicKey: keyOf("k").publicKey, accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: BOB, methodNames: Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(200, "z")) } } } }],
        { AddKeyMethodNamesNumberOfBytesExceeded: { total_number_of_bytes: 2010, limit: 2000 } },
      ],
      [
        "InvalidAccountId (function-call key receiver)",
        [{ type: "AddKey", publicKey: keyOf("k").publicKey, accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: "Not Valid", methodNames: [] } } } }],
        { InvalidAccountId: { account_id: "Not Valid" } },
      ],
      [
        "UnsuitableStakingKey",
        [{ type: "Stake", stake: NEAR, publicKey: secp256k1FromSecret(new Uint8Array(32).fill(7)).publicKey }],
        { UnsuitableStakingKey: { public_key: formatPublicKey(secp256k1FromSecret(new Uint8Array(32).fill(7)).publicKey) } },
      ],
      [
        "ContractSizeExceeded (DeployGlobalContract)",
        [{ type: "DeployGlobalContract", code: new Uint8Array(4_194_305), deployMode: "CodeHash" }],
        { ContractSizeExceeded: { size: 4_194_305, limit: 4_194_304 } },
      ],
      [
        "GasKeyInvalidNumNonces (0 nonces)",
        [{ type: "AddKey", publicKey: keyOf("k").publicKey, accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces: 0 } } } }],
        { GasKeyInvalidNumNonces: { requested_nonces: 0, limit: 1024 } },
      ],
      [
        "GasKeyInvalidNumNonces (1,025 nonces)",
        [{ type: "AddKey", publicKey: keyOf("k").publicKey, accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces: 1025 } } } }],
        { GasKeyInvalidNumNonces: { requested_nonces: 1025, limit: 1024 } },
      ],
      [
        "AddGasKeyWithNonZeroBalance",
        [{ type: "AddKey", publicKey: keyOf("k").publicKey, accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 5n, numNonces: 1 } } } }],
        { AddGasKeyWithNonZeroBalance: { balance: "5" } },
      ],
      [
        "GasKeyFunctionCallAllowanceNotAllowed (checked before the nonce count)",
        [
          {
            type: "AddKey",
            publicKey: keyOf("k").publicKey,
            accessKey: {
              nonce: 0n,
              permission: {
                GasKeyFunctionCall: { gasKeyInfo: { balance: 0n, numNonces: 0 }, functionCall: { allowance: 1n, receiverId: BOB, methodNames: [] } },
              },
            },
          },
        ],
        "GasKeyFunctionCallAllowanceNotAllowed",
      ],
      [
        "InvalidAccountId (function-call gas key receiver, before the gas-key checks)",
        [
          {
            type: "AddKey",
            publicKey: keyOf("k").publicKey,
            accessKey: {
              nonce: 0n,
              permission: {
                GasKeyFunctionCall: { gasKeyInfo: { balance: 1n, numNonces: 0 }, functionCall: { allowance: 1n, receiverId: "Not Valid", methodNames: [] } },
              },
            },
          },
        ],
        { InvalidAccountId: { account_id: "Not Valid" } },
      ],
      [
        "InvalidDeterministicStateInitReceiver (a state init sent to a named account)",
        [{ type: "DeterministicStateInit", stateInit: { version: "V1", code: { kind: "AccountId", accountId: BOB }, data: [] }, deposit: 0n }],
        { InvalidDeterministicStateInitReceiver: { receiver_id: BOB, derived_id: "0s5361295ea6e92c46eeaf095f1ea5f7a352b12648" } },
      ],
    ];
    for (const [name, actions, expected] of cases) {
      it(name, async () => {
        const chain = await openChain();
        expect(refusal(() => submit(chain, ALICE, BOB, actions))).toEqual({ ActionsValidation: expected });
      });
    }

    it("DelegateActionMustBeOnlyOne", async () => {
      const chain = await openChain();
      const d = signDelegateAction(
        { senderId: BOB, receiverId: ALICE, actions: [transfer(1n)], nonce: 1n, maxBlockHeight: 100n, publicKey: devKeyPair(BOB).publicKey },
        devKeyPair(BOB),
      );
      expect(refusal(() => submit(chain, ALICE, BOB, [d, d]))).toEqual({ ActionsValidation: "DelegateActionMustBeOnlyOne" });
    });
  });

  it("TransactionSizeExceeded: transaction plus signature above max_transaction_size", async () => {
    const chain = await openChain();
    const code = new Uint8Array(1_600_000);
    const bytes = signedTx(chain, ALICE, ALICE, [{ type: "DeployContract", code }]);
    expect(refusal(() => chain.submitTransaction(bytes))).toEqual({ TransactionSizeExceeded: { size: bytes.length, limit: 1_572_864 } });
  });

  it("CostOverflow: the total cost leaves u128", async () => {
    const chain = await openChain();
    expect(refusal(() => submit(chain, ALICE, BOB, [transfer(2n ** 128n - 1n)]))).toBe("CostOverflow");
  });

  it("InvalidNonceIndex: a gas-key nonce on a plain access key", async () => {
    const chain = await openChain();
    const key = devKeyPair(ALICE);
    const tx = {
      version: 1 as const,
      signerId: ALICE,
      publicKey: key.publicKey,
      nonce: { kind: "GasKeyNonce" as const, nonce: 1n, nonceIndex: 3 },
      receiverId: BOB,
      blockHash: chain.head().hashBytes,
      actions: [transfer(1n)],
      nonceMode: "Monotonic" as const,
    };
    expect(refusal(() => chain.submitTransaction(encodeSignedTransaction(signTransaction(tx, key))))).toEqual({
      InvalidNonceIndex: { tx_nonce_index: 3, num_nonces: 0 },
    });
  });

  it("follows nearcore's order: validity period, actions, size, signature, then state", async () => {
    const chain = await openChain();
    const stranger = keyOf("stranger");
    // Unknown signer and forged signature: the signature is checked before the state.
    const tx = {
      version: 0 as const,
      signerId: "nobody.test.near",
      publicKey: stranger.publicKey,
      nonce: 1n,
      receiverId: BOB,
      blockHash: chain.head().hashBytes,
      actions: [transfer(1n)],
    };
    const forged = { ...signTransaction(tx, devKeyPair(BOB)), transaction: tx };
    expect(refusal(() => chain.submitTransaction(encodeSignedTransaction(forged)))).toBe("InvalidSignature");
    // Actions before the signature; the validity period before everything.
    const badActions = { ...tx, actions: [call("m", 0n)] };
    const forged2 = { ...signTransaction(badActions, devKeyPair(BOB)), transaction: badActions };
    expect(refusal(() => chain.submitTransaction(encodeSignedTransaction(forged2)))).toEqual({ ActionsValidation: "FunctionCallZeroAttachedGas" });
    const expired = { ...badActions, blockHash: new Uint8Array(32).fill(9) };
    const forged3 = { ...signTransaction(expired, devKeyPair(BOB)), transaction: expired };
    expect(refusal(() => chain.submitTransaction(encodeSignedTransaction(forged3)))).toBe("Expired");
    // Cost overflow before the signer lookup.
    const overflow = { ...tx, actions: [transfer(2n ** 128n - 1n)] };
    expect(refusal(() => chain.submitTransaction(encodeSignedTransaction(signTransaction(overflow, stranger))))).toBe("CostOverflow");
  });

  it("a decode failure is a TransactionDecodeError, not an InvalidTxError", async () => {
    const chain = await openChain();
    expect(() => chain.submitTransaction(new Uint8Array([1, 2, 3]))).toThrow(TransactionDecodeError);
  });

  it("the hash of a refused transaction stays unknown", async () => {
    const chain = await openChain();
    const bytes = signedTx(chain, ALICE, BOB, [transfer(1n)], { nonce: 0n });
    expect(() => chain.submitTransaction(bytes)).toThrow(InvalidTransactionError);
    const stx = signTransaction(
      { version: 0, signerId: ALICE, publicKey: devKeyPair(ALICE).publicKey, nonce: 0n, receiverId: BOB, blockHash: chain.head().hashBytes, actions: [transfer(1n)] },
      devKeyPair(ALICE),
    );
    const { base58Encode } = await import("@shardkit/primitives/base58");
    expect(chain.transactionStatus(base58Encode(transactionHash(stx.transaction)))).toBeUndefined();
  });
});
