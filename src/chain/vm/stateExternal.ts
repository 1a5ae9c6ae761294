import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import { contractDataPrefix, contractDataTrieKey } from "../store/trieKeys.js";
import {
  PROMISE_YIELD_STATUS,
  dataIdToYieldIdKey,
  promiseYieldReceiptKey,
  promiseYieldStatusKey,
  yieldIdToDataIdKey,
} from "../runtime/runtimeTrieKeys.js";
import type { VmExternal } from "./VmExternal.js";

/** Room for a prefix and a key of nearcore's default max_length_storage_key (2 KiB) and then some. */
const KEY_SCRATCH = Buffer.allocUnsafe(4096);
/**
 * The prefix KEY_SCRATCH starts with: kept there across calls (every call to a contract
 * reads and writes keys under one prefix), so a key is one copy of its own bytes.
 */
let scratchPrefix = "";
/** Values written through a string without a Buffer object each. */
const VALUE_SCRATCH = Buffer.allocUnsafe(4096);
/** Values up to this length are copied out of their latin1 string char by char (no Buffer). */
const SHORT_VALUE = 64;

/** A state value's bytes: short ones without the Buffer round trip latin1ToBytes makes. */
function stateBytes(raw: string): Uint8Array {
  if (raw.length > SHORT_VALUE) return latin1ToBytes(raw);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Reads and writes of one account's contract data as trie keys (`0x09 ‖ account ‖ ',' ‖ key`). */
export interface StateAccess {
  get(key: string): string | undefined;
  set?(key: string, value: string): void;
  remove?(key: string): void;
}

/**
 * A {@link VmExternal} over `state` for `accountId`; without set/remove, writes are a host bug.
 * A class rather than closures: one is made per call, on the hot path.
 */
export class StateExternal implements VmExternal {
  private total: bigint | undefined;
  /** `0x09 ‖ account ‖ ','`, the start of each key in KEY_SCRATCH. */
  private readonly prefix: string;

  constructor(
    private readonly state: StateAccess,
    private readonly accountId: string,
    private readonly validators: ReadonlyMap<string, bigint>,
  ) {
    this.prefix = contractDataPrefix(accountId);
  }

  /**
   * contractDataTrieKey(accountId, key), built in a reused buffer: the same flat latin1
   * string without allocating a Buffer per key (each storage call makes one).
   */
  private trieKey(key: Uint8Array): string {
    const n = this.prefix.length + key.length;
    if (n > KEY_SCRATCH.length) return contractDataTrieKey(this.accountId, key);
    if (scratchPrefix !== this.prefix) {
      KEY_SCRATCH.write(this.prefix, 0, "latin1");
      scratchPrefix = this.prefix;
    }
    KEY_SCRATCH.set(key, this.prefix.length);
    return KEY_SCRATCH.toString("latin1", 0, n);
  }

  storageGet(key: Uint8Array): Uint8Array | undefined {
    const raw = this.state.get(this.trieKey(key));
    return raw === undefined ? undefined : stateBytes(raw);
  }

  storageSet(key: Uint8Array, value: Uint8Array): void {
    if (this.state.set === undefined) throw new Error("this state cannot be written");
    const trieKey = this.trieKey(key);
    if (value.length > VALUE_SCRATCH.length) this.state.set(trieKey, bytesToLatin1(value));
    else {
      VALUE_SCRATCH.set(value, 0);
      this.state.set(trieKey, VALUE_SCRATCH.toString("latin1", 0, value.length));
    }
  }

  storageRemove(key: Uint8Array): void {
    if (this.state.remove === undefined) throw new Error("this state cannot be written");
    this.state.remove(this.trieKey(key));
  }

  validatorStake(accountId: string): bigint | undefined {
    return this.validators.get(accountId);
  }

  validatorTotalStake(): bigint {
    this.total ??= [...this.validators.values()].reduce((s, v) => s + v, 0n);
    return this.total;
  }

  promiseYieldAwaiting(dataId: Uint8Array): boolean {
    return (
      this.state.get(promiseYieldReceiptKey(this.accountId, dataId)) !== undefined ||
      this.state.get(promiseYieldStatusKey(this.accountId, dataId)) !== undefined
    );
  }

  setPromiseYieldStatus(dataId: Uint8Array, status: "Yielded" | "ResumeInitiated"): void {
    if (this.state.set === undefined) throw new Error("this state cannot be written");
    this.state.set(promiseYieldStatusKey(this.accountId, dataId), PROMISE_YIELD_STATUS[status]);
  }

  yieldIdDataId(yieldId: Uint8Array): Uint8Array | undefined {
    const raw = this.state.get(yieldIdToDataIdKey(this.accountId, yieldId));
    return raw === undefined ? undefined : latin1ToBytes(raw);
  }

  setYieldIdMapping(yieldId: Uint8Array, dataId: Uint8Array): void {
    if (this.state.set === undefined) throw new Error("this state cannot be written");
    this.state.set(yieldIdToDataIdKey(this.accountId, yieldId), bytesToLatin1(dataId));
    this.state.set(dataIdToYieldIdKey(this.accountId, dataId), bytesToLatin1(yieldId));
  }
}

/** {@link StateExternal} as a function. */
export function stateExternal(state: StateAccess, accountId: string, validators: ReadonlyMap<string, bigint>): VmExternal {
  return new StateExternal(state, accountId, validators);
}
