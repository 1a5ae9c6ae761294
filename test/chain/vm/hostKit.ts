import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { NEARCORE_RUNTIME_PARAMETERS, type RuntimeParameters } from "../../../src/chain/runtime/parameters.js";
import { HostErrorThrow, type HostError } from "../../../src/chain/vm/HostError.js";
import { hostFunctions } from "../../../src/chain/vm/imports/hostFunctions.js";
import type { VmContext } from "../../../src/chain/vm/VmContext.js";
import type { VmExternal } from "../../../src/chain/vm/VmExternal.js";
import { VmLogic } from "../../../src/chain/vm/VmLogic.js";

export const P = NEARCORE_RUNTIME_PARAMETERS;
export const E = P.wasm.extCosts;
export { U64_MAX } from "../../../src/chain/primitives/integerLimits.js";
import { U64_MAX } from "../../../src/chain/primitives/integerLimits.js";
export const CURRENT = "contract.test.near";
const enc = new TextEncoder();

export const DEFAULT_CONTEXT: VmContext = {
  chainId: "localnet",
  currentAccountId: CURRENT,
  signerAccountId: "signer.test.near",
  signerAccountPk: new Uint8Array(33),
  predecessorAccountId: "caller.test.near",
  input: enc.encode('{"arg":1}'),
  promiseResults: [],
  blockHeight: 10n,
  blockTimestamp: 1_700_000_000_000_000_000n,
  epochHeight: 2n,
  accountBalance: 100n * 10n ** 24n,
  accountLockedBalance: 7n,
  storageUsage: 500n,
  attachedDeposit: 5n,
  prepaidGas: 300n * 10n ** 12n,
  randomSeed: new Uint8Array(32).fill(9),
  isView: false,
  outputDataReceivers: [],
  codeHash: new Uint8Array(32).fill(1),
};

/**
 * A VmLogic over 1 page of memory and an in-memory storage, with the host functions as the
 * guest would call them (i64 as bigint). Gas is checked against the parameter table.
 */
/** An External with no contract storage and no validators: for calls that never reach either. */
export const NO_STATE_EXT: VmExternal = {
  storageGet: () => undefined,
  storageSet: () => undefined,
  storageRemove: () => undefined,
  validatorStake: () => undefined,
  validatorTotalStake: () => 0n,
};

export function hostKit(context: Partial<VmContext> = {}, params: RuntimeParameters = P) {
  const storage = new Map<string, Uint8Array>();
  /** Yield statuses by data id (hex); a test may add an id as if its yield receipt were stored. */
  const yieldStatus = new Map<string, string>();
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
  /** Data ids of pending yield ids (hex), as promise_yield_create_with_id leaves them. */
  const yieldIds = new Map<string, Uint8Array>();
  const ext: VmExternal = {
    promiseYieldAwaiting: (id) => yieldStatus.has(hex(id)),
    setPromiseYieldStatus: (id, status) => void yieldStatus.set(hex(id), status),
    yieldIdDataId: (id) => yieldIds.get(hex(id)),
    setYieldIdMapping: (id, dataId) => void yieldIds.set(hex(id), dataId),
    storageGet: (k) => storage.get(hex(k)),
    storageSet: (k, v) => void storage.set(hex(k), v),
    storageRemove: (k) => void storage.delete(hex(k)),
    validatorStake: (id) => (id === "validator.test.near" ? 42n * 10n ** 24n : undefined),
    validatorTotalStake: () => 42n * 10n ** 24n,
  };
  let dataIds = 0;
  const l = new VmLogic({ ...DEFAULT_CONTEXT, ...context }, params, ext, () => sha256(Uint8Array.of(dataIds++)));
  const memory = new WebAssembly.Memory({ initial: 1 });
  l.attachMemory(memory);
  // The guest's view of the host: any function by name (tests call them directly).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const env: any = hostFunctions(l).env;
  const mem = () => new Uint8Array(memory.buffer);
  return {
    l,
    env,
    storage,
    yieldStatus,
    yieldIds,
    mem,
    /** Writes bytes (or a UTF-8 string) at ptr and returns [len, ptr] as bigints. */
    put(ptr: number, data: Uint8Array | string): [bigint, bigint] {
      const bytes = typeof data === "string" ? enc.encode(data) : data;
      mem().set(bytes, ptr);
      return [BigInt(bytes.length), BigInt(ptr)];
    },
    get(ptr: number, len: number): Uint8Array {
      return mem().slice(ptr, ptr + len);
    },
    register(id: bigint): Uint8Array | undefined {
      return l.registers.get(id);
    },
    /** Gas burnt by `fn` alone. */
    gasOf(fn: () => unknown): bigint {
      const before = l.gas.burntGas;
      fn();
      return l.gas.burntGas - before;
    },
  };
}

/** The HostError `fn` throws (fails the test if it throws anything else or nothing). */
export function hostErrorOf(fn: () => unknown): HostError {
  try {
    fn();
  } catch (e) {
    if (e instanceof HostErrorThrow) return e.hostError;
    throw e;
  }
  throw new Error("expected a HostError");
}

export const u128 = (v: bigint): Uint8Array => {
  const b = Buffer.alloc(16);
  b.writeBigUInt64LE(v & U64_MAX, 0);
  b.writeBigUInt64LE(v >> 64n, 8);
  return b;
};
export const readU128 = (b: Uint8Array): bigint => Buffer.from(b).readBigUInt64LE(0) + (Buffer.from(b).readBigUInt64LE(8) << 64n);
