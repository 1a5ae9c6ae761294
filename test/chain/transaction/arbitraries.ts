import fc from "fast-check";
import { isValidAccountId } from "@shardkit/primitives/accountId";
import { KeyType, type PublicKey } from "@shardkit/primitives/publicKey";
import type {
  AccessKeyPermissionWithGasKeys,
  Action,
  DelegateAction,
  DelegateActionV2,
  GlobalContractIdentifier,
  NonDelegateAction,
  Signature,
  SignedTransaction,
  Transaction,
  TransactionNonce,
} from "../../../src/chain/transaction/index.js";

/** fast-check generators for every part of a signed transaction, all within what borsh can carry. */

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const u128 = fc.bigInt({ min: 0n, max: 2n ** 128n - 1n });
const u16 = fc.integer({ min: 0, max: 0xffff });
const bytes = fc.uint8Array({ maxLength: 24 });
const text = fc.string({ unit: "binary", maxLength: 12 });

export const accountId = fc
  .stringMatching(/^[a-z0-9]{1,8}([._-][a-z0-9]{1,8}){0,4}$/)
  .filter((id) => isValidAccountId(id));

export const publicKey: fc.Arbitrary<PublicKey> = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((data) => ({ keyType: KeyType.ED25519, data })),
  fc.uint8Array({ minLength: 64, maxLength: 64 }).map((data) => ({ keyType: KeyType.SECP256K1, data })),
);

export const signature: fc.Arbitrary<Signature> = fc.oneof(
  // nearcore refuses ed25519 signatures whose last byte has any of its top 3 bits set.
  fc.uint8Array({ minLength: 64, maxLength: 64 }).map((data) => {
    data[63]! &= 0x1f;
    return { keyType: KeyType.ED25519, data };
  }),
  fc.uint8Array({ minLength: 65, maxLength: 65 }).map((data) => ({ keyType: KeyType.SECP256K1, data })),
);

const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 });

export const transactionNonce: fc.Arbitrary<TransactionNonce> = fc.oneof(
  u64.map((nonce) => ({ kind: "Nonce" as const, nonce })),
  fc.record({ kind: fc.constant("GasKeyNonce" as const), nonce: u64, nonceIndex: u16 }),
);

const functionCallPermission = fc.record({
  allowance: fc.option(u128, { nil: null }),
  receiverId: text,
  methodNames: fc.array(text, { maxLength: 3 }),
});
const gasKeyInfo = fc.record({ balance: u128, numNonces: u16 });

const permission: fc.Arbitrary<AccessKeyPermissionWithGasKeys> = fc.oneof(
  fc.constant("FullAccess" as const),
  functionCallPermission.map((FunctionCall) => ({ FunctionCall })),
  fc
    .record({ gasKeyInfo, functionCall: functionCallPermission })
    .map((GasKeyFunctionCall) => ({ GasKeyFunctionCall })),
  gasKeyInfo.map((GasKeyFullAccess) => ({ GasKeyFullAccess })),
);

const globalContractIdentifier: fc.Arbitrary<GlobalContractIdentifier> = fc.oneof(
  hash32.map((codeHash) => ({ kind: "CodeHash" as const, codeHash })),
  accountId.map((id) => ({ kind: "AccountId" as const, accountId: id })),
);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

const stateInitData = fc
  .uniqueArray(fc.uint8Array({ maxLength: 6 }), {
    maxLength: 4,
    selector: (k) => Buffer.from(k).toString("hex"),
  })
  .chain((keys) =>
    fc.tuple(
      fc.constant(keys.sort(compareBytes)),
      fc.array(bytes, { minLength: keys.length, maxLength: keys.length }),
    ),
  )
  .map(([keys, values]) => keys.map((k, i) => [k, values[i]!] as const));

export const nonDelegateAction: fc.Arbitrary<NonDelegateAction> = fc.oneof(
  fc.constant({ type: "CreateAccount" as const }),
  bytes.map((code) => ({ type: "DeployContract" as const, code })),
  fc.record({
    type: fc.constant("FunctionCall" as const),
    methodName: text,
    args: bytes,
    gas: u64,
    deposit: u128,
  }),
  u128.map((deposit) => ({ type: "Transfer" as const, deposit })),
  fc.record({ type: fc.constant("Stake" as const), stake: u128, publicKey }),
  fc.record({
    type: fc.constant("AddKey" as const),
    publicKey,
    accessKey: fc.record({ nonce: u64, permission }),
  }),
  fc.record({ type: fc.constant("DeleteKey" as const), publicKey }),
  fc.record({ type: fc.constant("DeleteAccount" as const), beneficiaryId: accountId }),
  fc.record({
    type: fc.constant("DeployGlobalContract" as const),
    code: bytes,
    deployMode: fc.constantFrom("CodeHash" as const, "AccountId" as const),
  }),
  fc.record({
    type: fc.constant("UseGlobalContract" as const),
    contractIdentifier: globalContractIdentifier,
  }),
  fc.record({
    type: fc.constant("DeterministicStateInit" as const),
    stateInit: fc.record({
      version: fc.constant("V1" as const),
      code: globalContractIdentifier,
      data: stateInitData,
    }),
    deposit: u128,
  }),
  fc.record({ type: fc.constant("TransferToGasKey" as const), publicKey, deposit: u128 }),
  fc.record({ type: fc.constant("WithdrawFromGasKey" as const), publicKey, amount: u128 }),
);

const delegateAction: fc.Arbitrary<DelegateAction> = fc.record({
  senderId: accountId,
  receiverId: accountId,
  actions: fc.array(nonDelegateAction, { maxLength: 3 }),
  nonce: u64,
  maxBlockHeight: u64,
  publicKey,
});
const delegateActionV2: fc.Arbitrary<DelegateActionV2> = fc.record({
  senderId: accountId,
  receiverId: accountId,
  actions: fc.array(nonDelegateAction, { maxLength: 3 }),
  nonce: transactionNonce,
  maxBlockHeight: u64,
  publicKey,
});

export const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: nonDelegateAction, weight: 6 },
  {
    arbitrary: fc.record({ type: fc.constant("Delegate" as const), delegateAction, signature }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("DelegateV2" as const),
      payload: fc.record({ version: fc.constant("V2" as const), delegateAction: delegateActionV2 }),
      signature,
    }),
    weight: 1,
  },
);

const actions = fc.array(action, { maxLength: 4 });

export const transaction: fc.Arbitrary<Transaction> = fc.oneof(
  fc.record({
    version: fc.constant(0 as const),
    signerId: accountId,
    publicKey,
    nonce: u64,
    receiverId: accountId,
    blockHash: hash32,
    actions,
  }),
  fc.record({
    version: fc.constant(1 as const),
    signerId: accountId,
    publicKey,
    nonce: transactionNonce,
    receiverId: accountId,
    blockHash: hash32,
    actions,
    nonceMode: fc.constantFrom("Monotonic" as const, "Strict" as const),
  }),
);

export const signedTransaction: fc.Arbitrary<SignedTransaction> = fc.record({ transaction, signature });
