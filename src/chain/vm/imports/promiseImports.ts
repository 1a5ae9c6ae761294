import { U64_MAX } from "../../primitives/integerLimits.js";
import { transferExecFee, transferSendFee } from "../../runtime/actionFees.js";
import type { GlobalContractDeployMode, GlobalContractIdentifier } from "@shardkit/primitives/action";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** nearcore utils.rs `split_method_names`: comma-separated byte strings, none empty. */
export function splitMethodNames(raw: Uint8Array): Uint8Array[] {
  if (raw.length === 0) return [];
  const names: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (i < raw.length && raw[i] !== 0x2c) continue;
    if (i === start) throw hostError({ name: "EmptyMethodName" });
    names.push(raw.subarray(start, i));
    start = i + 1;
  }
  return names;
}

/** RuntimeExt turns method names into strings when the action is appended: bad UTF-8 is InvalidMethodName. */
export function methodName(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw hostError({ name: "InvalidMethodName" });
  }
}

/**
 * Promises API: promise_create/then/and, promise_batch_create/then and every
 * promise_batch_action_*. Fees are nearcore's: a new receipt burns its send fee and reserves
 * its execution fee, each dependency burns the data-receipt base fees; each action burns its
 * send fee and reserves its execution fee; function calls also reserve their attached gas.
 * Deposits leave the balance the contract sees at once.
 */
export function promiseImports(l: VmLogic): HostImports {
  const f = l.fees;

  const batchCreate = (accLen: bigint, accPtr: bigint): bigint => {
    l.gas.payBase("base");
    l.denyInView("promise_batch_create");
    const accountId = l.readAccountId(accPtr, accLen);
    l.payForNewReceipt(accountId === l.context.currentAccountId, []);
    const receipt = l.receipts.createActionReceipt([], accountId);
    return l.pushPromise({ receipt });
  };

  const batchThen = (idx: bigint, accLen: bigint, accPtr: bigint): bigint => {
    l.gas.payBase("base");
    l.denyInView("promise_batch_then");
    const accountId = l.readAccountId(accPtr, accLen);
    const p = l.promise(idx);
    const deps = "receipt" in p ? [p.receipt] : [...p.joint];
    l.payForNewReceipt(
      accountId === l.context.currentAccountId,
      deps.map((d) => l.receipts.receiverOf(d) === accountId),
    );
    const receipt = l.receipts.createActionReceipt(deps, accountId);
    return l.pushPromise({ receipt });
  };

  /** nearcore `promise_batch_action_deploy_global_contract_impl`: the code, then the receipt, then the fees. */
  const deployGlobalContract = (idx: bigint, codeLen: bigint, codePtr: bigint, deployMode: GlobalContractDeployMode, name: string): void => {
    l.gas.payBase("base");
    l.denyInView(name);
    const code = l.memoryOrRegister(codePtr, codeLen);
    const size = BigInt(code.length);
    if (size > l.config.maxContractSize) throw hostError({ name: "ContractSizeExceeded", fields: { size, limit: l.config.maxContractSize } });
    const { receipt, sir } = l.receiptOf(idx);
    l.payActionBase(f.deployGlobalContractBase, sir, "deploy_global_contract_base");
    l.payActionPerByte(f.deployGlobalContractPerByte, size, sir, "deploy_global_contract_byte");
    l.receipts.append(receipt, { type: "DeployGlobalContract", code: Uint8Array.from(code), deployMode });
  };

  /** nearcore `promise_batch_action_use_global_contract_impl` after the identifier is read: per byte of the identifier (32 for a hash). */
  const useGlobalContract = (idx: bigint, contractIdentifier: GlobalContractIdentifier): void => {
    const { receipt, sir } = l.receiptOf(idx);
    const length = BigInt(contractIdentifier.kind === "CodeHash" ? 32 : contractIdentifier.accountId.length);
    l.payActionBase(f.useGlobalContractBase, sir, "use_global_contract_base");
    l.payActionPerByte(f.useGlobalContractPerIdentifierByte, length, sir, "use_global_contract_byte");
    l.receipts.append(receipt, { type: "UseGlobalContract", contractIdentifier });
  };

  const functionCallWeight = (
    idx: bigint,
    mLen: bigint,
    mPtr: bigint,
    aLen: bigint,
    aPtr: bigint,
    amountPtr: bigint,
    gas: bigint,
    weight: bigint,
  ): void => {
    l.gas.payBase("base");
    l.denyInView("promise_batch_action_function_call");
    const amount = l.readU128(amountPtr);
    const method = l.memoryOrRegister(mPtr, mLen);
    if (method.length === 0) throw hostError({ name: "EmptyMethodName" });
    const args = l.memoryOrRegister(aPtr, aLen);
    const { receipt, sir } = l.receiptOf(idx);
    const bytes = BigInt(method.length + args.length);
    l.payActionBase(f.functionCallBase, sir, "function_call_base");
    l.payActionPerByte(f.functionCallPerByte, bytes, sir, "function_call_byte");
    l.gas.prepay(gas);
    l.deductFunctionCallDeposit(amount);
    l.receipts.appendFunctionCall(receipt, methodName(method), args, amount, gas, weight);
  };

  return {
    promise_create(accLen: bigint, accPtr: bigint, mLen: bigint, mPtr: bigint, aLen: bigint, aPtr: bigint, amountPtr: bigint, gas: bigint): bigint {
      const idx = batchCreate(accLen, accPtr);
      functionCallWeight(idx, mLen, mPtr, aLen, aPtr, amountPtr, gas, 0n);
      return idx;
    },
    promise_then(
      prev: bigint,
      accLen: bigint,
      accPtr: bigint,
      mLen: bigint,
      mPtr: bigint,
      aLen: bigint,
      aPtr: bigint,
      amountPtr: bigint,
      gas: bigint,
    ): bigint {
      const idx = batchThen(prev, accLen, accPtr);
      functionCallWeight(idx, mLen, mPtr, aLen, aPtr, amountPtr, gas, 0n);
      return idx;
    },
    promise_and(idsPtr: bigint, count: bigint): bigint {
      l.gas.payBase("base");
      l.denyInView("promise_and");
      l.gas.payBase("promise_and_base");
      const memLen = count * 8n;
      if (memLen > U64_MAX) throw hostError({ name: "IntegerOverflow" });
      l.gas.payPer("promise_and_per_promise", memLen);
      const raw = l.readMemory(idsPtr, memLen);
      const view = Buffer.from(raw.buffer, raw.byteOffset, raw.length);
      const deps: number[] = [];
      for (let i = 0; i < raw.length; i += 8) {
        const p = l.promise(view.readBigUInt64LE(i));
        if ("receipt" in p) deps.push(p.receipt);
        else deps.push(...p.joint);
        const limit = l.config.maxNumberInputDataDependencies;
        if (deps.length > limit) {
          throw hostError({
            name: "NumberInputDataDependenciesExceeded",
            fields: { number_of_input_data_dependencies: BigInt(deps.length), limit: BigInt(limit) },
          });
        }
      }
      return l.pushPromise({ joint: deps });
    },
    promise_batch_create: batchCreate,
    promise_batch_then: batchThen,
    promise_batch_action_create_account(idx: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_create_account");
      const { receipt, sir } = l.receiptOf(idx);
      l.payActionBase(f.createAccount, sir, "create_account");
      l.receipts.append(receipt, { type: "CreateAccount" });
    },
    promise_batch_action_deploy_contract(idx: bigint, codeLen: bigint, codePtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_deploy_contract");
      const code = l.memoryOrRegister(codePtr, codeLen);
      const size = BigInt(code.length);
      if (size > l.config.maxContractSize) throw hostError({ name: "ContractSizeExceeded", fields: { size, limit: l.config.maxContractSize } });
      const { receipt, sir } = l.receiptOf(idx);
      l.payActionBase(f.deployContractBase, sir, "deploy_contract_base");
      l.payActionPerByte(f.deployContractPerByte, size, sir, "deploy_contract_byte");
      l.receipts.append(receipt, { type: "DeployContract", code });
    },
    promise_batch_action_deploy_global_contract(idx: bigint, codeLen: bigint, codePtr: bigint): void {
      deployGlobalContract(idx, codeLen, codePtr, "CodeHash", "promise_batch_action_deploy_global_contract");
    },
    promise_batch_action_deploy_global_contract_by_account_id(idx: bigint, codeLen: bigint, codePtr: bigint): void {
      deployGlobalContract(idx, codeLen, codePtr, "AccountId", "promise_batch_action_deploy_global_contract_by_account_id");
    },
    promise_batch_action_use_global_contract(idx: bigint, hashLen: bigint, hashPtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_use_global_contract");
      const codeHash = l.memoryOrRegister(hashPtr, hashLen);
      if (codeHash.length !== 32) throw hostError({ name: "ContractCodeHashMalformed" });
      useGlobalContract(idx, { kind: "CodeHash", codeHash: Uint8Array.from(codeHash) });
    },
    promise_batch_action_use_global_contract_by_account_id(idx: bigint, accLen: bigint, accPtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_use_global_contract_by_account_id");
      useGlobalContract(idx, { kind: "AccountId", accountId: l.readAccountId(accPtr, accLen) });
    },
    promise_batch_action_function_call(idx: bigint, mLen: bigint, mPtr: bigint, aLen: bigint, aPtr: bigint, amountPtr: bigint, gas: bigint): void {
      functionCallWeight(idx, mLen, mPtr, aLen, aPtr, amountPtr, gas, 0n);
    },
    promise_batch_action_function_call_weight: functionCallWeight,
    promise_batch_action_transfer(idx: bigint, amountPtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_transfer");
      const amount = l.readU128(amountPtr);
      const { receipt, sir } = l.receiptOf(idx);
      const receiverId = l.receipts.receiverOf(receipt);
      const burn = transferSendFee(f, sir, receiverId);
      l.gas.payAction(burn, burn + transferExecFee(f, receiverId), "transfer");
      l.deductBalance(amount);
      l.receipts.append(receipt, { type: "Transfer", deposit: amount });
    },
    promise_batch_action_stake(idx: bigint, amountPtr: bigint, pkLen: bigint, pkPtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_stake");
      const amount = l.readU128(amountPtr);
      const key = l.readPublicKey(pkPtr, pkLen);
      const { receipt, sir } = l.receiptOf(idx);
      l.payActionBase(f.stake, sir, "stake");
      l.receipts.append(receipt, { type: "Stake", stake: amount, publicKey: key() });
    },
    promise_batch_action_add_key_with_full_access(idx: bigint, pkLen: bigint, pkPtr: bigint, nonce: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_add_key_with_full_access");
      const key = l.readPublicKey(pkPtr, pkLen);
      const { receipt, sir } = l.receiptOf(idx);
      l.payActionBase(f.addFullAccessKey, sir, "add_full_access_key");
      l.receipts.append(receipt, { type: "AddKey", publicKey: key(), accessKey: { nonce, permission: "FullAccess" } });
    },
    promise_batch_action_add_key_with_function_call(
      idx: bigint,
      pkLen: bigint,
      pkPtr: bigint,
      nonce: bigint,
      allowancePtr: bigint,
      rLen: bigint,
      rPtr: bigint,
      nLen: bigint,
      nPtr: bigint,
    ): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_add_key_with_function_call");
      const key = l.readPublicKey(pkPtr, pkLen);
      const allowance = l.readU128(allowancePtr);
      const receiverId = l.readAccountId(rPtr, rLen);
      const methodNames = splitMethodNames(l.memoryOrRegister(nPtr, nLen));
      const { receipt, sir } = l.receiptOf(idx);
      const bytes = methodNames.reduce((n, m) => n + BigInt(m.length) + 1n, 0n);
      l.payActionBase(f.addFunctionCallKeyBase, sir, "add_function_call_key_base");
      l.payActionPerByte(f.addFunctionCallKeyPerByte, bytes, sir, "add_function_call_key_byte");
      l.receipts.append(receipt, {
        type: "AddKey",
        publicKey: key(),
        accessKey: { nonce, permission: { FunctionCall: { allowance: allowance > 0n ? allowance : null, receiverId, methodNames: methodNames.map(methodName) } } },
      });
    },
    promise_batch_action_delete_key(idx: bigint, pkLen: bigint, pkPtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_delete_key");
      const key = l.readPublicKey(pkPtr, pkLen);
      const { receipt, sir } = l.receiptOf(idx);
      l.payActionBase(f.deleteKey, sir, "delete_key");
      l.receipts.append(receipt, { type: "DeleteKey", publicKey: key() });
    },
    promise_batch_action_delete_account(idx: bigint, bLen: bigint, bPtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_delete_account");
      const beneficiaryId = l.readAccountId(bPtr, bLen);
      const { receipt, sir } = l.receiptOf(idx);
      l.payActionBase(f.deleteAccount, sir, "delete_account");
      l.receipts.append(receipt, { type: "DeleteAccount", beneficiaryId });
    },
  };
}
