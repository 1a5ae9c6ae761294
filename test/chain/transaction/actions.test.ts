import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { ed25519FromSeed } from "../../../src/chain/primitives/ed25519.js";
import { KeyType, type PublicKey } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import {
  DELEGATE_ACTION_PREFIX,
  DELEGATE_ACTION_V2_PREFIX,
  decodeAction,
  delegateActionHash,
  delegateActionV2Hash,
  encodeAction,
  signDelegateAction,
  signDelegateActionV2,
  toActionView,
  verifySignature,
  type Action,
  type ActionView,
  type DelegateAction,
  type DelegateActionV2,
} from "../../../src/chain/transaction/index.js";
import { cat, fill, hex, str, u128, u16, u32, u64, vec } from "./bytes.js";

const ED: PublicKey = { keyType: KeyType.ED25519, data: fill(32, 0x11) };
const ED_BORSH = cat([0], ED.data);
const ED_TEXT = `ed25519:${base58Encode(ED.data)}`;
const SECP: PublicKey = { keyType: KeyType.SECP256K1, data: fill(64, 0x22) };
const SECP_BORSH = cat([1], SECP.data);
const SECP_TEXT = `secp256k1:${base58Encode(SECP.data)}`;
const HASH = fill(32, 0xab);
const signer = ed25519FromSeed(fill(32, 7));
const SIGNER_BORSH = cat([0], signer.publicKey.data);

interface Case {
  name: string;
  action: Action;
  bytes: Uint8Array;
  view: ActionView;
}

// Inner actions of the delegate cases: their JSON inside a delegate view is serde `Action`.
const innerActions = [
  { type: "FunctionCall", methodName: "go", args: new Uint8Array([1]), gas: 5n, deposit: 0n },
  { type: "DeployGlobalContract", code: new Uint8Array([9]), deployMode: "AccountId" },
  { type: "UseGlobalContract", contractIdentifier: { kind: "CodeHash", codeHash: HASH } },
  {
    type: "AddKey",
    publicKey: ED,
    accessKey: {
      nonce: 0n,
      permission: {
        GasKeyFunctionCall: {
          gasKeyInfo: { balance: 3n, numNonces: 4 },
          functionCall: { allowance: null, receiverId: "x.near", methodNames: [] },
        },
      },
    },
  },
] as const satisfies readonly Action[];
// prettier-ignore
const innerBytes = cat(
  u32(4),
  [2], str("go"), vec(new Uint8Array([1])), u64(5), u128(0),
  [9], vec(new Uint8Array([9])), [1],
  [10], [0], HASH,
  [5], ED_BORSH, u64(0), [2], u128(3), u16(4), [0], str("x.near"), u32(0),
);
const innerJson = [
  { FunctionCall: { method_name: "go", args: "AQ==", gas: 5, deposit: "0" } },
  { DeployGlobalContract: { code: "CQ==", deploy_mode: "AccountId" } },
  { UseGlobalContract: { contract_identifier: { CodeHash: base58Encode(HASH) } } },
  {
    AddKey: {
      public_key: ED_TEXT,
      access_key: {
        nonce: 0,
        permission: {
          GasKeyFunctionCall: [
            { balance: "3", num_nonces: 4 },
            { allowance: null, receiver_id: "x.near", method_names: [] },
          ],
        },
      },
    },
  },
];

const delegateV1: DelegateAction = {
  senderId: "alice.near",
  receiverId: "bob.near",
  actions: innerActions,
  nonce: 42n,
  maxBlockHeight: 1000n,
  publicKey: signer.publicKey,
};
const delegateV1Body = cat(str("alice.near"), str("bob.near"), innerBytes, u64(42), u64(1000), SIGNER_BORSH);
const signedV1 = signDelegateAction(delegateV1, signer);

const delegateV2: DelegateActionV2 = {
  senderId: "alice.near",
  receiverId: "bob.near",
  actions: innerActions,
  nonce: { kind: "GasKeyNonce", nonce: 9n, nonceIndex: 3 },
  maxBlockHeight: 1000n,
  publicKey: signer.publicKey,
};
const delegateV2Body = cat(
  [0],
  str("alice.near"),
  str("bob.near"),
  innerBytes,
  [1],
  u64(9),
  u16(3),
  u64(1000),
  SIGNER_BORSH,
);
const signedV2 = signDelegateActionV2(delegateV2, signer);

const cases: Case[] = [
  { name: "0 CreateAccount", action: { type: "CreateAccount" }, bytes: cat([0]), view: "CreateAccount" },
  {
    name: "1 DeployContract",
    action: { type: "DeployContract", code: new Uint8Array([0, 0x61, 0x73, 0x6d]) },
    bytes: cat([1], u32(4), "0061736d"),
    view: { DeployContract: { code: "AGFzbQ==" } },
  },
  {
    name: "2 FunctionCall",
    action: {
      type: "FunctionCall",
      methodName: "ft_transfer",
      args: new TextEncoder().encode('{"a":1}'),
      gas: 30_000_000_000_000n,
      deposit: 1n,
    },
    bytes: cat([2], str("ft_transfer"), str('{"a":1}'), u64(30_000_000_000_000n), u128(1)),
    view: {
      FunctionCall: {
        method_name: "ft_transfer",
        args: "eyJhIjoxfQ==",
        gas: 30_000_000_000_000,
        deposit: "1",
      },
    },
  },
  {
    name: "3 Transfer (u128 above 2^64)",
    action: { type: "Transfer", deposit: 2n ** 127n + 5n },
    bytes: cat([3], u128(2n ** 127n + 5n)),
    view: { Transfer: { deposit: (2n ** 127n + 5n).toString() } },
  },
  {
    name: "4 Stake (secp256k1 key)",
    action: { type: "Stake", stake: 10n ** 24n, publicKey: SECP },
    bytes: cat([4], u128(10n ** 24n), SECP_BORSH),
    view: { Stake: { stake: "1000000000000000000000000", public_key: SECP_TEXT } },
  },
  {
    name: "5 AddKey FullAccess",
    action: { type: "AddKey", publicKey: ED, accessKey: { nonce: 7n, permission: "FullAccess" } },
    bytes: cat([5], ED_BORSH, u64(7), [1]),
    view: { AddKey: { public_key: ED_TEXT, access_key: { nonce: 7, permission: "FullAccess" } } },
  },
  {
    name: "5 AddKey FunctionCall with allowance",
    action: {
      type: "AddKey",
      publicKey: ED,
      accessKey: {
        nonce: 0n,
        permission: {
          FunctionCall: { allowance: 250n * 10n ** 21n, receiverId: "app.near", methodNames: ["a", "b"] },
        },
      },
    },
    bytes: cat(
      [5],
      ED_BORSH,
      u64(0),
      [0],
      [1],
      u128(250n * 10n ** 21n),
      str("app.near"),
      u32(2),
      str("a"),
      str("b"),
    ),
    view: {
      AddKey: {
        public_key: ED_TEXT,
        access_key: {
          nonce: 0,
          permission: {
            FunctionCall: {
              allowance: "250000000000000000000000",
              receiver_id: "app.near",
              method_names: ["a", "b"],
            },
          },
        },
      },
    },
  },
  {
    name: "5 AddKey FunctionCall, unlimited, any method",
    action: {
      type: "AddKey",
      publicKey: ED,
      accessKey: {
        nonce: 1n,
        permission: { FunctionCall: { allowance: null, receiverId: "app.near", methodNames: [] } },
      },
    },
    bytes: cat([5], ED_BORSH, u64(1), [0], [0], str("app.near"), u32(0)),
    view: {
      AddKey: {
        public_key: ED_TEXT,
        access_key: {
          nonce: 1,
          permission: { FunctionCall: { allowance: null, receiver_id: "app.near", method_names: [] } },
        },
      },
    },
  },
  {
    name: "5 AddKey GasKeyFunctionCall",
    action: {
      type: "AddKey",
      publicKey: ED,
      accessKey: {
        nonce: 0n,
        permission: {
          GasKeyFunctionCall: {
            gasKeyInfo: { balance: 3n, numNonces: 4 },
            functionCall: { allowance: 5n, receiverId: "aurora", methodNames: ["submit"] },
          },
        },
      },
    },
    bytes: cat(
      [5],
      ED_BORSH,
      u64(0),
      [2],
      u128(3),
      u16(4),
      [1],
      u128(5),
      str("aurora"),
      u32(1),
      str("submit"),
    ),
    view: {
      AddKey: {
        public_key: ED_TEXT,
        access_key: {
          nonce: 0,
          permission: {
            GasKeyFunctionCall: {
              balance: "3",
              num_nonces: 4,
              allowance: "5",
              receiver_id: "aurora",
              method_names: ["submit"],
            },
          },
        },
      },
    },
  },
  {
    name: "5 AddKey GasKeyFullAccess",
    action: {
      type: "AddKey",
      publicKey: ED,
      accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 6n, numNonces: 7 } } },
    },
    bytes: cat([5], ED_BORSH, u64(0), [3], u128(6), u16(7)),
    view: {
      AddKey: {
        public_key: ED_TEXT,
        access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: "6", num_nonces: 7 } } },
      },
    },
  },
  {
    name: "6 DeleteKey",
    action: { type: "DeleteKey", publicKey: SECP },
    bytes: cat([6], SECP_BORSH),
    view: { DeleteKey: { public_key: SECP_TEXT } },
  },
  {
    name: "7 DeleteAccount",
    action: { type: "DeleteAccount", beneficiaryId: "bob.near" },
    bytes: cat([7], str("bob.near")),
    view: { DeleteAccount: { beneficiary_id: "bob.near" } },
  },
  {
    name: "8 Delegate",
    action: signedV1,
    bytes: cat([8], delegateV1Body, [0], signedV1.signature.data),
    view: {
      Delegate: {
        delegate_action: {
          sender_id: "alice.near",
          receiver_id: "bob.near",
          actions: innerJson,
          nonce: 42,
          max_block_height: 1000,
          public_key: signer.publicKeyString,
        },
        signature: `ed25519:${base58Encode(signedV1.signature.data)}`,
      },
    } as ActionView,
  },
  {
    name: "9 DeployGlobalContract by code hash",
    action: { type: "DeployGlobalContract", code: new Uint8Array([1, 2, 3]), deployMode: "CodeHash" },
    bytes: cat([9], u32(3), "010203", [0]),
    view: { DeployGlobalContract: { code: "AQID" } },
  },
  {
    name: "9 DeployGlobalContract by account id",
    action: { type: "DeployGlobalContract", code: new Uint8Array([4]), deployMode: "AccountId" },
    bytes: cat([9], u32(1), "04", [1]),
    view: { DeployGlobalContractByAccountId: { code: "BA==" } },
  },
  {
    name: "10 UseGlobalContract by code hash",
    action: { type: "UseGlobalContract", contractIdentifier: { kind: "CodeHash", codeHash: HASH } },
    bytes: cat([10], [0], HASH),
    view: { UseGlobalContract: { code_hash: base58Encode(HASH) } },
  },
  {
    name: "10 UseGlobalContract by account id",
    action: { type: "UseGlobalContract", contractIdentifier: { kind: "AccountId", accountId: "code.near" } },
    bytes: cat([10], [1], str("code.near")),
    view: { UseGlobalContractByAccountId: { account_id: "code.near" } },
  },
  {
    name: "11 DeterministicStateInit",
    action: {
      type: "DeterministicStateInit",
      stateInit: {
        version: "V1",
        code: { kind: "AccountId", accountId: "code.near" },
        data: [
          [new Uint8Array([]), new Uint8Array([3])],
          [new Uint8Array([1]), new Uint8Array([2])],
        ],
      },
      deposit: 8n,
    },
    bytes: cat(
      [11],
      [0],
      [1],
      str("code.near"),
      u32(2),
      u32(0),
      u32(1),
      [3],
      u32(1),
      [1],
      u32(1),
      [2],
      u128(8),
    ),
    view: {
      DeterministicStateInit: {
        code: { account_id: "code.near" },
        data: { "": "Aw==", "AQ==": "Ag==" },
        deposit: "8",
      },
    },
  },
  {
    name: "11 DeterministicStateInit by code hash, no data",
    action: {
      type: "DeterministicStateInit",
      stateInit: { version: "V1", code: { kind: "CodeHash", codeHash: HASH }, data: [] },
      deposit: 0n,
    },
    bytes: cat([11], [0], [0], HASH, u32(0), u128(0)),
    view: { DeterministicStateInit: { code: { hash: base58Encode(HASH) }, data: {}, deposit: "0" } },
  },
  {
    name: "12 TransferToGasKey",
    action: { type: "TransferToGasKey", publicKey: ED, deposit: 9n },
    bytes: cat([12], ED_BORSH, u128(9)),
    view: { TransferToGasKey: { public_key: ED_TEXT, deposit: "9" } },
  },
  {
    name: "13 WithdrawFromGasKey",
    action: { type: "WithdrawFromGasKey", publicKey: ED, amount: 10n },
    bytes: cat([13], ED_BORSH, u128(10)),
    view: { WithdrawFromGasKey: { public_key: ED_TEXT, amount: "10" } },
  },
  {
    name: "14 DelegateV2 (gas-key nonce)",
    action: signedV2,
    bytes: cat([14], delegateV2Body, [0], signedV2.signature.data),
    view: {
      DelegateV2: {
        delegate_action: {
          V2: {
            sender_id: "alice.near",
            receiver_id: "bob.near",
            actions: innerJson,
            nonce: { GasKeyNonce: { nonce: 9, nonce_index: 3 } },
            max_block_height: 1000,
            public_key: signer.publicKeyString,
          },
        },
        signature: `ed25519:${base58Encode(signedV2.signature.data)}`,
      },
    } as ActionView,
  },
];

describe("Action borsh and ActionView, per variant", () => {
  it("covers every tag 0..14", () => {
    const tags = new Set(cases.map((c) => c.bytes[0]));
    expect([...tags].sort((a, b) => a! - b!)).toEqual([...Array(15).keys()]);
  });

  it.each(cases)("$name: decodes the hand-built bytes", ({ action, bytes }) => {
    expect(decodeAction(bytes)).toEqual(action);
  });

  it.each(cases)("$name: encodes to the same bytes", ({ action, bytes }) => {
    expect(hex(encodeAction(action))).toBe(hex(bytes));
  });

  it.each(cases)("$name: renders nearcore's ActionView", ({ action, view }) => {
    expect(toActionView(action)).toEqual(view);
    // Survives JSON (no bigint or Uint8Array left in the view).
    expect(JSON.parse(JSON.stringify(toActionView(action)))).toEqual(view);
  });
});

describe("delegate action hashing (NEP-461)", () => {
  it("Delegate: sha256(u32 LE 2^30+366 ‖ borsh(DelegateAction))", () => {
    expect(DELEGATE_ACTION_PREFIX).toBe(1_073_742_190);
    expect(hex(u32(DELEGATE_ACTION_PREFIX))).toBe("6e010040");
    const expected = sha256(cat(u32(1_073_742_190), delegateV1Body));
    expect(hex(delegateActionHash(delegateV1))).toBe(hex(expected));
    expect(verifySignature(expected, signedV1.signature, signer.publicKey)).toBe(true);
  });

  it("DelegateV2: sha256(u32 LE 2^30+611 ‖ 0x00 (V2 tag) ‖ borsh(DelegateActionV2))", () => {
    expect(DELEGATE_ACTION_V2_PREFIX).toBe(1_073_742_435);
    const expected = sha256(cat(u32(1_073_742_435), delegateV2Body));
    expect(hex(delegateActionV2Hash(signedV2.payload))).toBe(hex(expected));
    expect(verifySignature(expected, signedV2.signature, signer.publicKey)).toBe(true);
    // The V1 domain never validates a V2 signature.
    const underV1Prefix = sha256(cat(u32(1_073_742_190), delegateV2Body));
    expect(verifySignature(underV1Prefix, signedV2.signature, signer.publicKey)).toBe(false);
  });

  it("a signature bound to one nonce index does not verify for another", () => {
    const other = { ...delegateV2, nonce: { kind: "GasKeyNonce", nonce: 9n, nonceIndex: 4 } } as const;
    const hash = delegateActionV2Hash({ version: "V2", delegateAction: other });
    expect(verifySignature(hash, signedV2.signature, signer.publicKey)).toBe(false);
  });
});
