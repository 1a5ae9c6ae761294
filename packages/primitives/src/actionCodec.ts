import { assertValidAccountId } from "./accountId.js";
import { BorshWriter } from "./borshWriter.js";
import { readAccessKeyWithGasKeys, writeAccessKeyWithGasKeys } from "./accessKeyWithGasKeys.js";
import {
  ACTION_TAG,
  type Action,
  type DelegateAction,
  type DelegateActionV2,
  type DeterministicAccountStateInit,
  type GlobalContractIdentifier,
  type NonDelegateAction,
  type VersionedDelegateActionPayload,
} from "./action.js";
import { writeSignature } from "./signature.js";
import { readTransactionNonce, writeTransactionNonce } from "./transactionNonce.js";
import { TxReader } from "./TxReader.js";
import { writePublicKey } from "./writePublicKey.js";

/*
 * Borsh codec of nearcore's `Action` enum (core/primitives/src/action/mod.rs, tags 0..14)
 * and of the delegate payloads in action/delegate.rs. Layouts of 9..14 follow nearcore
 * `Action` at protocol 85 (DelegateV2 = 14) and near-kit-rs `types/action.rs`; the
 * GlobalContractIdentifier and DeterministicAccountStateInit layouts are from
 * core/primitives-core (global_contract.rs, deterministic_account_id.rs).
 */

const CODE_HASH_LEN = 32;

function readGlobalContractIdentifier(r: TxReader, what: string): GlobalContractIdentifier {
  const at = r.position;
  const tag = r.u8(what);
  if (tag === 0) return { kind: "CodeHash", codeHash: r.fixed(CODE_HASH_LEN, what) };
  if (tag === 1) return { kind: "AccountId", accountId: r.accountId(what) };
  return r.fail(`${what}: unknown GlobalContractIdentifier tag ${tag}`, at);
}

/** Byte-wise order (a shorter prefix first): the order of nearcore's BTreeMap<Vec<u8>, _> keys. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function readStateInit(r: TxReader): DeterministicAccountStateInit {
  const at = r.position;
  const tag = r.u8("state_init");
  if (tag !== 0) r.fail(`state_init: unknown DeterministicAccountStateInit tag ${tag}`, at);
  const code = readGlobalContractIdentifier(r, "state_init.code");
  // Each entry is at least two empty Vec<u8> (8 bytes).
  const count = r.vecLength("state_init.data", 8);
  const data: (readonly [Uint8Array, Uint8Array])[] = [];
  let prev: Uint8Array | undefined;
  for (let i = 0; i < count; i++) {
    const keyAt = r.position;
    const key = r.bytesVec("state_init.data key");
    // nearcore collects into a BTreeMap (which sorts and de-duplicates, so re-encoding can
    // differ from the input). We accept only the canonical order instead, which keeps
    // encode(decode(x)) == x and the tx hash equal to sha256 of the bytes received.
    if (prev !== undefined && compareBytes(prev, key) >= 0) {
      r.fail("state_init.data: keys must be strictly ascending (canonical BTreeMap order)", keyAt);
    }
    data.push([key, r.bytesVec("state_init.data value")]);
    prev = key;
  }
  return { version: "V1", code, data };
}

function readDelegateActions(r: TxReader, what: string): NonDelegateAction[] {
  const count = r.vecLength(what, 1);
  const actions: NonDelegateAction[] = [];
  for (let i = 0; i < count; i++) actions.push(readAction(r, true) as NonDelegateAction);
  return actions;
}

function readDelegateAction(r: TxReader): DelegateAction {
  return {
    senderId: r.accountId("delegate_action.sender_id"),
    receiverId: r.accountId("delegate_action.receiver_id"),
    actions: readDelegateActions(r, "delegate_action.actions"),
    nonce: r.u64("delegate_action.nonce"),
    maxBlockHeight: r.u64("delegate_action.max_block_height"),
    publicKey: r.publicKey("delegate_action.public_key"),
  };
}

function readDelegatePayload(r: TxReader): VersionedDelegateActionPayload {
  const at = r.position;
  const tag = r.u8("delegate_action");
  if (tag !== 0) r.fail(`delegate_action: unknown VersionedDelegateActionPayload tag ${tag}`, at);
  const delegateAction: DelegateActionV2 = {
    senderId: r.accountId("delegate_action.sender_id"),
    receiverId: r.accountId("delegate_action.receiver_id"),
    actions: readDelegateActions(r, "delegate_action.actions"),
    nonce: readTransactionNonce(r, "delegate_action.nonce"),
    maxBlockHeight: r.u64("delegate_action.max_block_height"),
    publicKey: r.publicKey("delegate_action.public_key"),
  };
  return { version: "V2", delegateAction };
}

/**
 * Reads one Action. With `nested` (inside a delegate action) the delegate tags 8 and 14 are
 * refused, as nearcore's `NonDelegateAction` does; that also bounds recursion at depth 2.
 */
export function readAction(r: TxReader, nested: boolean): Action {
  const at = r.position;
  const tag = r.u8("action");
  switch (tag) {
    case ACTION_TAG.CreateAccount:
      return { type: "CreateAccount" };
    case ACTION_TAG.DeployContract:
      return { type: "DeployContract", code: r.bytesVec("DeployContract.code") };
    case ACTION_TAG.FunctionCall:
      return {
        type: "FunctionCall",
        methodName: r.string("FunctionCall.method_name"),
        args: r.bytesVec("FunctionCall.args"),
        gas: r.u64("FunctionCall.gas"),
        deposit: r.u128("FunctionCall.deposit"),
      };
    case ACTION_TAG.Transfer:
      return { type: "Transfer", deposit: r.u128("Transfer.deposit") };
    case ACTION_TAG.Stake:
      return { type: "Stake", stake: r.u128("Stake.stake"), publicKey: r.publicKey("Stake.public_key") };
    case ACTION_TAG.AddKey:
      return {
        type: "AddKey",
        publicKey: r.publicKey("AddKey.public_key"),
        accessKey: readAccessKeyWithGasKeys(r),
      };
    case ACTION_TAG.DeleteKey:
      return { type: "DeleteKey", publicKey: r.publicKey("DeleteKey.public_key") };
    case ACTION_TAG.DeleteAccount:
      return { type: "DeleteAccount", beneficiaryId: r.accountId("DeleteAccount.beneficiary_id") };
    case ACTION_TAG.DeployGlobalContract: {
      const code = r.bytesVec("DeployGlobalContract.code");
      const modeAt = r.position;
      const mode = r.u8("DeployGlobalContract.deploy_mode");
      if (mode > 1)
        r.fail(`DeployGlobalContract.deploy_mode: unknown GlobalContractDeployMode tag ${mode}`, modeAt);
      return { type: "DeployGlobalContract", code, deployMode: mode === 0 ? "CodeHash" : "AccountId" };
    }
    case ACTION_TAG.UseGlobalContract:
      return {
        type: "UseGlobalContract",
        contractIdentifier: readGlobalContractIdentifier(r, "UseGlobalContract.contract_identifier"),
      };
    case ACTION_TAG.DeterministicStateInit:
      return {
        type: "DeterministicStateInit",
        stateInit: readStateInit(r),
        deposit: r.u128("DeterministicStateInit.deposit"),
      };
    case ACTION_TAG.TransferToGasKey:
      return {
        type: "TransferToGasKey",
        publicKey: r.publicKey("TransferToGasKey.public_key"),
        deposit: r.u128("TransferToGasKey.deposit"),
      };
    case ACTION_TAG.WithdrawFromGasKey:
      return {
        type: "WithdrawFromGasKey",
        publicKey: r.publicKey("WithdrawFromGasKey.public_key"),
        amount: r.u128("WithdrawFromGasKey.amount"),
      };
    case ACTION_TAG.Delegate:
    case ACTION_TAG.DelegateV2:
      // nearcore's own wording for this error.
      if (nested) return r.fail("DelegateAction mustn't contain a nested one", at);
      if (tag === ACTION_TAG.Delegate) {
        return {
          type: "Delegate",
          delegateAction: readDelegateAction(r),
          signature: r.signature("Delegate.signature"),
        };
      }
      return {
        type: "DelegateV2",
        payload: readDelegatePayload(r),
        signature: r.signature("DelegateV2.signature"),
      };
    default:
      return r.fail(`action: unknown Action tag ${tag}`, at);
  }
}

function writeAccountId(w: BorshWriter, id: string): void {
  assertValidAccountId(id);
  w.string(id);
}

function writeGlobalContractIdentifier(w: BorshWriter, id: GlobalContractIdentifier): void {
  if (id.kind === "CodeHash") {
    if (id.codeHash.length !== CODE_HASH_LEN)
      throw new RangeError(`code hash must be 32 bytes, got ${id.codeHash.length}`);
    w.u8(0).fixed(id.codeHash);
  } else {
    w.u8(1);
    writeAccountId(w, id.accountId);
  }
}

/** Borsh DeterministicAccountStateInit (what a deterministic account id hashes). */
export function writeStateInit(w: BorshWriter, s: DeterministicAccountStateInit): void {
  w.u8(0);
  writeGlobalContractIdentifier(w, s.code);
  w.u32(s.data.length);
  let prev: Uint8Array | undefined;
  for (const [key, value] of s.data) {
    if (prev !== undefined && compareBytes(prev, key) >= 0) {
      throw new RangeError("state_init.data keys must be strictly ascending");
    }
    w.bytes(key).bytes(value);
    prev = key;
  }
}

function writeDelegateActions(w: BorshWriter, actions: readonly NonDelegateAction[]): void {
  w.u32(actions.length);
  for (const a of actions) {
    if ((a as Action).type === "Delegate" || (a as Action).type === "DelegateV2") {
      throw new TypeError("a delegate action cannot contain another delegate action");
    }
    writeAction(w, a);
  }
}

/** Borsh DelegateAction (the body that NEP-461 hashing prefixes with 2^30+366). */
export function writeDelegateAction(w: BorshWriter, d: DelegateAction): void {
  writeAccountId(w, d.senderId);
  writeAccountId(w, d.receiverId);
  writeDelegateActions(w, d.actions);
  w.u64(d.nonce).u64(d.maxBlockHeight);
  writePublicKey(w, d.publicKey);
}

/** Borsh VersionedDelegateActionPayload: tag 0 (V2) ‖ DelegateActionV2. */
export function writeDelegatePayload(w: BorshWriter, p: VersionedDelegateActionPayload): void {
  const d = p.delegateAction;
  w.u8(0);
  writeAccountId(w, d.senderId);
  writeAccountId(w, d.receiverId);
  writeDelegateActions(w, d.actions);
  writeTransactionNonce(w, d.nonce);
  w.u64(d.maxBlockHeight);
  writePublicKey(w, d.publicKey);
}

/** Appends one Action. Throws (RangeError/TypeError/InvalidAccountIdError) for values borsh cannot carry. */
export function writeAction(w: BorshWriter, a: Action): void {
  w.u8(ACTION_TAG[a.type]);
  switch (a.type) {
    case "CreateAccount":
      return;
    case "DeployContract":
      w.bytes(a.code);
      return;
    case "FunctionCall":
      w.string(a.methodName).bytes(a.args).u64(a.gas).u128(a.deposit);
      return;
    case "Transfer":
      w.u128(a.deposit);
      return;
    case "Stake":
      w.u128(a.stake);
      writePublicKey(w, a.publicKey);
      return;
    case "AddKey":
      writePublicKey(w, a.publicKey);
      writeAccessKeyWithGasKeys(w, a.accessKey);
      return;
    case "DeleteKey":
      writePublicKey(w, a.publicKey);
      return;
    case "DeleteAccount":
      writeAccountId(w, a.beneficiaryId);
      return;
    case "Delegate":
      writeDelegateAction(w, a.delegateAction);
      writeSignature(w, a.signature);
      return;
    case "DeployGlobalContract":
      w.bytes(a.code).u8(a.deployMode === "CodeHash" ? 0 : 1);
      return;
    case "UseGlobalContract":
      writeGlobalContractIdentifier(w, a.contractIdentifier);
      return;
    case "DeterministicStateInit":
      writeStateInit(w, a.stateInit);
      w.u128(a.deposit);
      return;
    case "TransferToGasKey":
      writePublicKey(w, a.publicKey);
      w.u128(a.deposit);
      return;
    case "WithdrawFromGasKey":
      writePublicKey(w, a.publicKey);
      w.u128(a.amount);
      return;
    case "DelegateV2":
      writeDelegatePayload(w, a.payload);
      writeSignature(w, a.signature);
      return;
  }
}

/** Borsh bytes of one action. */
export function encodeAction(a: Action): Uint8Array {
  const w = new BorshWriter();
  writeAction(w, a);
  return w.toBytes();
}

/** Decodes exactly one action (no trailing bytes); throws TransactionDecodeError. */
export function decodeAction(bytes: Uint8Array): Action {
  const r = new TxReader(bytes);
  const a = readAction(r, false);
  r.end("action");
  return a;
}
