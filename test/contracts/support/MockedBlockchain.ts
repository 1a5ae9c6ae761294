import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A mocked blockchain for contract unit tests (what near-sdk's `testing_env!` is to Rust
 * contracts): one account's storage, the call context, and a record of the promises a call
 * creates, behind the NEAR `env` imports. No gas and no receipts: those belong to the chain;
 * test/contracts/chain*.test.ts drive the same wasm through a real Chain.
 */
export class ContractPanic extends Error {}

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
  gas?: bigint;
  gasWeight?: bigint;
  publicKey?: Uint8Array;
}

export interface RecordedPromise {
  receiver: string | null; // null for a promise_and join
  after: number[];
  actions: RecordedAction[];
}

export interface CallResult {
  value: string;
  logs: string[];
  promises: RecordedPromise[];
  returnedPromise: number | undefined;
}

const U64_MAX = (1n << 64n) - 1n;
const enc = new TextEncoder();
const dec = new TextDecoder();

export function contractWasm(name: string): Uint8Array {
  return readFileSync(join(import.meta.dirname, "../../../contracts/build", `${name}.wasm`));
}

export class MockedBlockchain {
  readonly storage = new Map<string, Uint8Array>();
  /** Starts at 100 (the account record) like a fresh account; code is not counted here. */
  storageUsage = 100n;
  private readonly module: WebAssembly.Module;

  constructor(
    wasm: Uint8Array,
    readonly accountId: string,
  ) {
    this.module = new WebAssembly.Module(wasm);
  }

  /** Calls `method` with JSON args; throws ContractPanic (with the logs) when the contract panics. */
  call(method: string, args: unknown = {}, ctx: CallContext = {}): CallResult {
    return this.callRaw(method, enc.encode(JSON.stringify(args)), ctx);
  }

  /** Calls `method` with raw input bytes. */
  callRaw(method: string, inputBytes: Uint8Array, ctx: CallContext = {}): CallResult {
    const snapshot = new Map(this.storage);
    const usageBefore = this.storageUsage;
    const registers = new Map<bigint, Uint8Array>();
    const logs: string[] = [];
    const promises: RecordedPromise[] = [];
    let returned: Uint8Array = new Uint8Array();
    let returnedPromise: number | undefined;
    let memory: WebAssembly.Memory | undefined;
    const mem = () => new Uint8Array(memory!.buffer);
    const bytes = (len: bigint, ptr: bigint) => {
      if (len === U64_MAX) return registers.get(ptr)!;
      return mem().slice(Number(ptr), Number(ptr + len));
    };
    const str = (len: bigint, ptr: bigint) => dec.decode(bytes(len, ptr));
    const u128 = (ptr: bigint) => {
      const b = mem().slice(Number(ptr), Number(ptr) + 16);
      let v = 0n;
      for (let i = 15; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
      return v;
    };
    const writeU128 = (ptr: bigint, v: bigint) => {
      const m = mem();
      for (let i = 0; i < 16; i++) m[Number(ptr) + i] = Number((v >> BigInt(8 * i)) & 0xffn);
    };
    const setReg = (id: bigint, v: Uint8Array) => registers.set(id, v);
    const key = (len: bigint, ptr: bigint) => Buffer.from(bytes(len, ptr)).toString("latin1");
    const addPromise = (receiver: string | null, after: number[]) =>
      promises.push({ receiver, after, actions: [] }) - 1;
    const fc = (p: bigint, method: string, args: string, amount: bigint, gas: bigint, gasWeight?: bigint) =>
      promises[Number(p)]!.actions.push({
        kind: "function_call",
        method,
        args,
        amount,
        gas,
        ...(gasWeight === undefined ? {} : { gasWeight }),
      });
    const panic = (msg: string): never => {
      throw new ContractPanic(msg);
    };

    const env: Record<string, (...a: never[]) => unknown> = {
      read_register: (id: bigint, ptr: bigint) =>
        mem().set(registers.get(id) ?? panic(`InvalidRegisterId ${id}`), Number(ptr)),
      register_len: (id: bigint) => BigInt(registers.get(id)?.length ?? U64_MAX),
      current_account_id: (r: bigint) => setReg(r, enc.encode(this.accountId)),
      predecessor_account_id: (r: bigint) => setReg(r, enc.encode(ctx.predecessor ?? "alice.test.near")),
      signer_account_id: (r: bigint) => setReg(r, enc.encode(ctx.signer ?? ctx.predecessor ?? "alice.test.near")),
      input: (r: bigint) => setReg(r, inputBytes),
      block_timestamp: () => 1_700_000_000_000_000_000n,
      epoch_height: () => ctx.epochHeight ?? 1n,
      storage_usage: () => this.storageUsage,
      account_balance: (p: bigint) => writeU128(p, (ctx.balance ?? 10n ** 26n) + (ctx.deposit ?? 0n)),
      account_locked_balance: (p: bigint) => writeU128(p, ctx.locked ?? 0n),
      attached_deposit: (p: bigint) => writeU128(p, ctx.deposit ?? 0n),
      prepaid_gas: () => ctx.prepaidGas ?? 300_000_000_000_000n,
      used_gas: () => 5_000_000_000_000n,
      value_return: (len: bigint, ptr: bigint) => {
        returned = bytes(len, ptr);
      },
      panic_utf8: (len: bigint, ptr: bigint) => panic(str(len, ptr)),
      log_utf8: (len: bigint, ptr: bigint) => {
        logs.push(str(len, ptr));
      },
      abort: (msg: number, file: number, line: number, col: number) => {
        const asStr = (p: number) =>
          p === 0
            ? ""
            : Buffer.from(mem().slice(p, p + new DataView(memory!.buffer).getUint32(p - 4, true))).toString("utf16le");
        panic(`${asStr(msg)}, filename: "${asStr(file)}" line: ${line} col: ${col}`);
      },
      storage_write: (kl: bigint, kp: bigint, vl: bigint, vp: bigint, r: bigint) => {
        const k = key(kl, kp);
        const v = bytes(vl, vp);
        const old = this.storage.get(k);
        this.storage.set(k, v);
        if (old === undefined) this.storageUsage += BigInt(k.length + v.length + 40);
        else {
          this.storageUsage += BigInt(v.length - old.length);
          setReg(r, old);
        }
        return old === undefined ? 0n : 1n;
      },
      storage_read: (kl: bigint, kp: bigint, r: bigint) => {
        const v = this.storage.get(key(kl, kp));
        if (v === undefined) return 0n;
        setReg(r, v);
        return 1n;
      },
      storage_remove: (kl: bigint, kp: bigint, r: bigint) => {
        const k = key(kl, kp);
        const old = this.storage.get(k);
        if (old === undefined) return 0n;
        this.storage.delete(k);
        this.storageUsage -= BigInt(k.length + old.length + 40);
        setReg(r, old);
        return 1n;
      },
      storage_has_key: (kl: bigint, kp: bigint) => (this.storage.has(key(kl, kp)) ? 1n : 0n),
      promise_create: (
        al: bigint,
        ap: bigint,
        ml: bigint,
        mp: bigint,
        gl: bigint,
        gp: bigint,
        amt: bigint,
        gas: bigint,
      ) => {
        const p = addPromise(str(al, ap), []);
        fc(BigInt(p), str(ml, mp), str(gl, gp), u128(amt), gas);
        return BigInt(p);
      },
      promise_then: (
        after: bigint,
        al: bigint,
        ap: bigint,
        ml: bigint,
        mp: bigint,
        gl: bigint,
        gp: bigint,
        amt: bigint,
        gas: bigint,
      ) => {
        const p = addPromise(str(al, ap), [Number(after)]);
        fc(BigInt(p), str(ml, mp), str(gl, gp), u128(amt), gas);
        return BigInt(p);
      },
      promise_and: (ptr: bigint, count: bigint) => {
        const view = new DataView(memory!.buffer);
        const after = Array.from({ length: Number(count) }, (_, i) =>
          Number(view.getBigUint64(Number(ptr) + 8 * i, true)),
        );
        return BigInt(addPromise(null, after));
      },
      promise_batch_create: (al: bigint, ap: bigint) => BigInt(addPromise(str(al, ap), [])),
      promise_batch_then: (after: bigint, al: bigint, ap: bigint) => BigInt(addPromise(str(al, ap), [Number(after)])),
      promise_batch_action_transfer: (p: bigint, amt: bigint) => {
        promises[Number(p)]!.actions.push({ kind: "transfer", amount: u128(amt) });
      },
      promise_batch_action_stake: (p: bigint, amt: bigint, kl: bigint, kp: bigint) => {
        promises[Number(p)]!.actions.push({ kind: "stake", amount: u128(amt), publicKey: bytes(kl, kp) });
      },
      promise_batch_action_function_call: (
        p: bigint,
        ml: bigint,
        mp: bigint,
        gl: bigint,
        gp: bigint,
        amt: bigint,
        gas: bigint,
      ) => fc(p, str(ml, mp), str(gl, gp), u128(amt), gas),
      promise_batch_action_function_call_weight: (
        p: bigint,
        ml: bigint,
        mp: bigint,
        gl: bigint,
        gp: bigint,
        amt: bigint,
        gas: bigint,
        w: bigint,
      ) => fc(p, str(ml, mp), str(gl, gp), u128(amt), gas, w),
      promise_results_count: () => BigInt(ctx.promiseResults?.length ?? 0),
      promise_result: (i: bigint, r: bigint) => {
        const res = ctx.promiseResults?.[Number(i)];
        if (res === undefined) return panic(`InvalidPromiseResultIndex ${i}`);
        if (res === null) return 2n;
        setReg(r, res);
        return 1n;
      },
      promise_return: (p: bigint) => {
        returnedPromise = Number(p);
      },
    };
    const instance = new WebAssembly.Instance(this.module, { env: env as WebAssembly.ModuleImports });
    memory = instance.exports["memory"] as WebAssembly.Memory;
    const fn = instance.exports[method];
    if (typeof fn !== "function") throw new Error(`no exported method ${method}`);
    try {
      (fn as () => void)();
    } catch (e) {
      this.storage.clear();
      for (const [k, v] of snapshot) this.storage.set(k, v);
      this.storageUsage = usageBefore;
      throw e;
    }
    return { value: dec.decode(returned), logs, promises, returnedPromise };
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
