import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatCryptoHash } from "../../../src/chain/primitives/cryptoHash.js";
import { publicKeyToBorsh } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../../src/chain/runtime/parameters.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import type { VmError } from "../../../src/chain/vm/FunctionCallError.js";
import { runContract } from "../../../src/chain/vm/runContract.js";
import type { VmExternal } from "../../../src/chain/vm/VmExternal.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";

/**
 * A one-account blockchain for contract unit tests (what near-sdk's `testing_env!` is to Rust
 * contracts): the account's storage and the call context around the REAL contract VM
 * (src/chain/vm runContract: prepared and metered wasm, the real host functions and gas).
 * What is simulated is the chain around it: there are no blocks, and the receipts a call
 * creates are recorded, not executed (test/contracts/chain*.test.ts drive the same wasm
 * through a real Chain). A failing call rolls the storage back and throws.
 */
export class ContractPanic extends Error {}

/** A call the VM aborted with something other than a guest panic (gas, host error, trap...). */
export class ContractFailure extends Error {
  constructor(readonly error: VmError) {
    super(JSON.stringify(error, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
  }
}

export interface CallContext {
  predecessor?: string;
  signer?: string;
  deposit?: bigint;
  balance?: bigint;
  locked?: bigint;
  epochHeight?: bigint;
  prepaidGas?: bigint;
  /** Results the callback sees: bytes (Successful) or null (Failed). */
  promiseResults?: (Uint8Array | null)[];
}

export interface RecordedAction {
  kind: "transfer" | "stake" | "function_call";
  amount: bigint;
  method?: string;
  args?: string;
  /** Attached gas, after the VM distributed the call's unused gas by weight. */
  gas?: bigint;
  publicKey?: Uint8Array;
}

/** A receipt the call created (receipt index = position). */
export interface RecordedPromise {
  receiver: string;
  /** Receipts whose results this one waits for (its input data). */
  after: number[];
  actions: RecordedAction[];
}

export interface CallResult {
  value: string;
  logs: string[];
  promises: RecordedPromise[];
  /** The receipt whose result became the call's (promise_return). */
  returnedPromise: number | undefined;
  burntGas: bigint;
  usedGas: bigint;
}

const dec = new TextDecoder();
const enc = new TextEncoder();
const PARAMS = NEARCORE_RUNTIME_PARAMETERS;
const cache = new ContractCache(wasmLimitsOf(PARAMS));
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export function contractWasm(name: string): Uint8Array {
  return readFileSync(join(import.meta.dirname, "../../../contracts/build", `${name}.wasm`));
}

function recordedAction(a: RecordedPromiseAction): RecordedAction {
  switch (a.type) {
    case "Transfer":
      return { kind: "transfer", amount: a.deposit };
    case "Stake":
      return { kind: "stake", amount: a.stake, publicKey: publicKeyToBorsh(a.publicKey) };
    case "FunctionCall":
      return { kind: "function_call", method: a.methodName, args: dec.decode(a.args), amount: a.deposit, gas: a.gas };
    default:
      throw new Error(`unexpected action ${a.type} in a contract unit test`);
  }
}
type RecordedPromiseAction = ReturnType<typeof runContract>["receipts"][number]["actions"][number];

export class MockedBlockchain {
  readonly storage = new Map<string, Uint8Array>();
  /** Starts at 100 (the account record) like a fresh account; code is not counted here. */
  storageUsage = 100n;
  private readonly codeHash: Uint8Array;
  private calls = 0;

  constructor(
    private readonly wasm: Uint8Array,
    readonly accountId: string,
  ) {
    this.codeHash = sha256(wasm);
  }

  /** Calls `method` with JSON args; throws ContractPanic when the contract panics. */
  call(method: string, args: unknown = {}, ctx: CallContext = {}): CallResult {
    return this.callRaw(method, enc.encode(JSON.stringify(args)), ctx);
  }

  /** Calls `method` with raw input bytes. */
  callRaw(method: string, inputBytes: Uint8Array, ctx: CallContext = {}): CallResult {
    const snapshot = new Map(this.storage);
    const storage = this.storage;
    const ext: VmExternal = {
      storageGet: (k) => storage.get(Buffer.from(k).toString("latin1"))?.slice(),
      storageSet: (k, v) => void storage.set(Buffer.from(k).toString("latin1"), v.slice()),
      storageRemove: (k) => void storage.delete(Buffer.from(k).toString("latin1")),
      validatorStake: () => undefined,
      validatorTotalStake: () => 0n,
    };
    const call = ++this.calls;
    let dataIds = 0;
    const predecessor = ctx.predecessor ?? "alice.test.near";
    const outcome = runContract({
      codeHash: formatCryptoHash(this.codeHash),
      code: () => this.wasm,
      methodName: method,
      context: {
        chainId: "localnet",
        currentAccountId: this.accountId,
        signerAccountId: ctx.signer ?? predecessor,
        signerAccountPk: new Uint8Array(33),
        predecessorAccountId: predecessor,
        input: inputBytes,
        promiseResults: ctx.promiseResults ?? [],
        blockHeight: 1n,
        blockTimestamp: 1_700_000_000_000_000_000n,
        epochHeight: ctx.epochHeight ?? 1n,
        accountBalance: ctx.balance ?? 10n ** 26n,
        accountLockedBalance: ctx.locked ?? 0n,
        storageUsage: this.storageUsage,
        attachedDeposit: ctx.deposit ?? 0n,
        prepaidGas: ctx.prepaidGas ?? 300_000_000_000_000n,
        randomSeed: new Uint8Array(32),
        isView: false,
        outputDataReceivers: [],
        codeHash: this.codeHash,
      },
      params: PARAMS,
      ext,
      newDataId: () => sha256(enc.encode(`${this.accountId}:${call}:${dataIds++}`)),
      cache,
    });
    if (outcome.error !== undefined) {
      storage.clear();
      for (const [k, v] of snapshot) storage.set(k, v);
      const e = outcome.error;
      if (e.kind === "HostError" && e.error.name === "GuestPanic") throw new ContractPanic(String(e.error.fields?.panic_msg));
      throw new ContractFailure(e);
    }
    this.storageUsage = outcome.storageUsage;
    const producer = new Map<string, number>();
    outcome.receipts.forEach((r, i) => {
      for (const out of r.outputDataReceivers) producer.set(hex(out.dataId), i);
    });
    const promises = outcome.receipts.map((r) => ({
      receiver: r.receiverId,
      after: r.inputDataIds.map((id) => producer.get(hex(id))!),
      actions: r.actions.map(recordedAction),
    }));
    const ret = outcome.returnData;
    return {
      value: ret.kind === "Value" ? dec.decode(ret.value) : "",
      logs: outcome.logs,
      promises,
      returnedPromise: ret.kind === "ReceiptIndex" ? ret.index : undefined,
      burntGas: outcome.burntGas,
      usedGas: outcome.usedGas,
    };
  }

  /** Calls and parses the JSON result. */
  view<T = unknown>(method: string, args: unknown = {}): T {
    const { value } = this.call(method, args);
    return (value === "" ? undefined : JSON.parse(value)) as T;
  }

  /** The raw storage, keys as latin1 strings. */
  entries(): [string, Uint8Array][] {
    return [...this.storage.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
