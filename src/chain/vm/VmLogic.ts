import { performance } from "node:perf_hooks";
import { isValidAccountId } from "@shardkit/primitives/accountId";
import { U64_MAX } from "../primitives/integerLimits.js";
import { publicKeyFromBorsh, type PublicKey } from "@shardkit/primitives/publicKey";
import type { ReturnData } from "../runtime/ActionResult.js";
import type { Fee, RuntimeFees, RuntimeParameters, WasmConfig } from "../runtime/parameters.js";
import { GasCounter } from "./GasCounter.js";
import { hostError } from "./HostError.js";
import { ReceiptManager } from "./ReceiptManager.js";
import type { VmContext } from "./VmContext.js";
import type { VmExternal } from "./VmExternal.js";
import { byteAt } from "../must.js";
import { i64Value } from "./instanceExports.js";

/** Wall-clock budget of one call (see VmLogic.checkClock). */
export const DEFAULT_TIME_LIMIT_MS = 3_000;
const CLOCK_CHECK_EVERY = 16_384;
const EMPTY_VIEW = new Uint8Array(0);
/** Most gas an instance may burn between two host checks (~1.2M instructions at regular_op_cost 822,756). */
const GAS_ARM_CAP = 10n ** 12n;

const released = (): never => {
  throw new Error("host state used after its call ended");
};
const RELEASED_EXT: VmExternal = {
  storageGet: released,
  storageSet: released,
  storageRemove: released,
  validatorStake: released,
  validatorTotalStake: released,
  promiseYieldAwaiting: released,
  setPromiseYieldStatus: released,
  yieldIdDataId: released,
  setYieldIdMapping: released,
};
const RELEASED_DATA_ID = released;
/** What a released VmLogic holds until its next call: empty, never written (begin replaces them). */
const RELEASED_REGISTERS: Map<bigint, Uint8Array> = new Map();
const RELEASED_RECEIPTS = new ReceiptManager(RELEASED_DATA_ID);

/** nearcore logic.rs `Promise`: a receipt, or a joint promise (promise_and) over receipts. */
export type Promise = { readonly receipt: number } | { readonly joint: readonly number[] };

/** writeU128's little-endian encoding buffer (a fresh 16-byte Buffer per call cost more than the write). */
const U128_SCRATCH = new Uint8Array(16);
const U128_VIEW = new DataView(U128_SCRATCH.buffer);

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const utf16 = new TextDecoder("utf-16le", { fatal: true, ignoreBOM: true });
const utf8Length = (s: string): number => Buffer.byteLength(s, "utf8");

/**
 * The state of one contract call and the helpers every host function shares (nearcore
 * `VMLogic` minus the host functions themselves, which live in the `*Imports.ts` files):
 * guest memory and registers with their gas charges, string decoding, account-id parsing,
 * logs, the balance left after deposits attached to promises, live storage usage, the
 * promise DAG and the receipts it creates.
 */
export class VmLogic {
  gas!: GasCounter;
  registers = new Map<bigint, Uint8Array>();
  /** Bytes the registers hold plus 8 per register (a double: bounded by the registers' memory limit). */
  private registersUsage = 0;
  logs: string[] = [];
  private totalLogLength = 0n;
  returnData: ReturnData = { kind: "None" };
  /** Balance + attached deposit − deposits attached to promises. */
  balance = 0n;
  /** yoctoNEAR attached to promises without leaving the balance (one_yocto_on_promise): minted. */
  subsidizedAmount = 0n;
  storageUsage = 0n;
  promises: Promise[] = [];
  receipts!: ReceiptManager;
  /** Bytes of wasm stack left (finite-wasm stack accounting). */
  remainingStack = 0n;
  private memory: WebAssembly.Memory | undefined;
  /** A view of the attached memory's current buffer (EMPTY_VIEW when detached). */
  private view: Uint8Array = EMPTY_VIEW;
  /** finite_wasm_gas calls left before the next wall-clock check. */
  ticksToClockCheck = CLOCK_CHECK_EVERY;
  private deadline = 0;
  context!: VmContext;
  ext!: VmExternal;

  readonly config: WasmConfig;
  readonly fees: RuntimeFees;
  private readonly maxRegisterSize: number;
  private readonly registersMemoryLimit: number;
  /** Bytes every contract-data record adds to storage usage beyond key and value (40). */
  readonly storageNumExtraBytesRecord: number;
  /** Bytes an account itself counts in storage usage (100). */
  readonly storageNumBytesAccount: number;
  /** yoctoNEAR of balance each byte of storage usage needs (10^19). */
  readonly storageAmountPerByte: bigint;

  constructor(
    context: VmContext,
    params: RuntimeParameters,
    ext: VmExternal,
    newDataId: () => Uint8Array,
    timeLimitMs: number = DEFAULT_TIME_LIMIT_MS,
    viewGasLimit?: bigint,
  ) {
    this.config = params.wasm;
    this.fees = params.fees;
    this.maxRegisterSize = Number(params.wasm.maxRegisterSize);
    this.registersMemoryLimit = Number(params.wasm.registersMemoryLimit);
    this.storageNumExtraBytesRecord = params.storageNumExtraBytesRecord;
    this.storageNumBytesAccount = params.storageNumBytesAccount;
    this.storageAmountPerByte = params.storageAmountPerByte;
    this.begin(context, ext, newDataId, timeLimitMs, viewGasLimit);
  }

  /**
   * Starts a new call with fresh state (registers, logs, gas, promises...). Host functions
   * built over this object stay valid, so a contract's linked imports are made once and
   * reused call after call (calls never nest: a contract cannot call another synchronously).
   */
  /** `viewGasLimit` lowers a view's burnt-gas cap below max_gas_burnt_view (indexer reads). */
  begin(
    context: VmContext,
    ext: VmExternal,
    newDataId: () => Uint8Array,
    timeLimitMs: number = DEFAULT_TIME_LIMIT_MS,
    viewGasLimit?: bigint,
  ): void {
    const config = this.config;
    this.context = context;
    this.ext = ext;
    this.deadline = performance.now() + timeLimitMs;
    this.ticksToClockCheck = CLOCK_CHECK_EVERY;
    const viewMax =
      viewGasLimit !== undefined && viewGasLimit < config.maxGasBurntView ? viewGasLimit : config.maxGasBurntView;
    const maxBurnt = context.isView ? viewMax : config.maxGasBurnt;
    // Reused from the previous call when there is one (begin runs before every call of a linked contract).
    if (this.gas?.extCosts === config.extCosts) this.gas.reset(maxBurnt, context.prepaidGas, context.isView);
    else this.gas = new GasCounter(config.extCosts, maxBurnt, context.prepaidGas, context.isView);
    this.registers = new Map();
    this.registersUsage = 0;
    this.logs = [];
    this.totalLogLength = 0n;
    this.returnData = { kind: "None" };
    this.balance = context.accountBalance + context.attachedDeposit;
    this.subsidizedAmount = 0n;
    this.storageUsage = context.storageUsage;
    this.promises = [];
    this.receipts = new ReceiptManager(newDataId);
    this.remainingStack = config.maxStackHeight;
    this.memory = undefined;
    this.view = EMPTY_VIEW;
  }

  /**
   * Drops what the finished call referenced (its state, receipts, registers), so a contract's
   * reusable host state does not keep a chunk's state update alive between calls.
   */
  release(): void {
    this.ext = RELEASED_EXT;
    this.registers = RELEASED_REGISTERS;
    this.receipts = RELEASED_RECEIPTS;
    this.promises = [];
    this.logs = [];
    this.memory = undefined;
    this.view = EMPTY_VIEW;
  }

  /**
   * Deviation from nearcore, which has no clock: a call still running after its time limit
   * is treated as code that runs until its gas is gone. It burns the rest of its gas and fails
   * with GasExceeded (or GasLimitExceeded), the outcome nearcore reaches for an endless loop.
   * Only code that would have finished after the limit gets a different result.
   */
  checkClock(): void {
    this.ticksToClockCheck = CLOCK_CHECK_EVERY;
    if (performance.now() > this.deadline) throw this.gas.exhaust();
  }

  attachMemory(memory: WebAssembly.Memory): void {
    this.memory = memory;
    this.view = new Uint8Array(memory.buffer);
    this.hostWriteEnd = 0;
  }

  /** End of the furthest guest-memory range the host wrote since attachMemory (MemoryPool clears below it). */
  hostWriteEnd = 0;

  /** After the call: the memory may go back to a pool, so nothing here may touch it again. */
  detachMemory(): void {
    this.memory = undefined;
    this.view = EMPTY_VIEW;
    this.gasGlobal = undefined;
    this.gas.clearReserve();
    this.needsArm = false;
  }

  // ---- wasm gas kept in the instance (instrument.ts GasGlobals) ----

  private gasGlobal: WebAssembly.Global | undefined;
  /** The gas global's value when the host last settled or armed it. */
  private gasArmed = 0n;
  /**
   * The instance's gas was settled during a host call (a charge came near a limit, the call
   * read its used gas, or created a promise): the host-call wrapper re-arms before returning
   * to wasm. Otherwise host calls leave the counter alone (GasCounter reserve).
   */
  needsArm = false;
  private readonly settleWasmGas = (): void => this.syncWasmGas();

  /** Starts metering through the instance's gas global (after instantiation, before the method runs). */
  attachGasGlobal(global: WebAssembly.Global): void {
    this.gasGlobal = global;
    this.armWasmGas();
  }

  /**
   * Burns the wasm gas the instance counted since it was last armed (always within the armed
   * budget). The instance must not run again before {@link armWasmGas}.
   */
  syncWasmGas(): void {
    const g = this.gasGlobal;
    if (g === undefined) return;
    const left = i64Value(g);
    const spent = this.gasArmed - left;
    this.gasArmed = left;
    this.gas.clearReserve();
    this.needsArm = true;
    if (spent > 0n && !this.gas.burnWasm(spent)) this.gas.burn(spent);
  }

  /**
   * Lets the instance burn what may still be burnt without a limit check, capped so that it
   * comes back (gas_checkpoint) often enough to look at the clock. The budget is the gas
   * counter's reserve until the instance's gas is next settled.
   */
  armWasmGas(): void {
    const g = this.gasGlobal;
    this.needsArm = false;
    if (g === undefined) return;
    const left = this.gas.remainingGas;
    const budget = left < 0n ? 0n : left < GAS_ARM_CAP ? left : GAS_ARM_CAP;
    g.value = budget;
    this.gasArmed = budget;
    this.gas.setReserve(budget, this.settleWasmGas);
  }

  /**
   * The instance's counter went below zero on a charge of `fee`: settle what came before it,
   * charge `fee` exactly as finite_wasm_gas does (over a limit: clamp and fail), then re-arm.
   */
  wasmGasCheckpoint(fee: bigint): void {
    const g = this.gasGlobal;
    if (g === undefined) throw hostError({ name: "IntegerOverflow" }); // unreachable: only gas-global code calls it
    const left = i64Value(g); // already lowered by fee
    const spent = this.gasArmed - (left + fee);
    this.gasArmed = left;
    this.gas.clearReserve();
    if (spent > 0n && !this.gas.burnWasm(spent)) this.gas.burn(spent);
    if (!this.gas.burnWasm(fee)) this.gas.burn(fee);
    this.checkClock();
    this.armWasmGas();
  }

  // ---- view calls ----

  /** ProhibitedInView for `method` when this is a view call. */
  denyInView(method: string): void {
    if (this.context.isView) throw hostError({ name: "ProhibitedInView", fields: { method_name: method } });
  }

  // ---- memory ----

  private bytes(): Uint8Array {
    if (this.memory === undefined) throw hostError({ name: "MemoryAccessViolation" });
    // memory.grow detaches the old buffer (its views drop to length 0): only then make a new view.
    if (this.view.length === 0) this.view = new Uint8Array(this.memory.buffer);
    return this.view;
  }

  /**
   * Where [ptr, ptr + len) starts in guest memory, or MemoryAccessViolation when it is not all
   * inside. In doubles, with no bigint and no tuple per access (every host call that touches
   * memory comes here): below 2^53 they are exact, and a u64 at or above it stays at or above
   * it as a double, far beyond any guest memory (at most 4 GiB).
   */
  private start(ptr: bigint, len: bigint | number): number {
    const mem = this.bytes();
    const start = Number(ptr);
    if (start + Number(len) > mem.length) throw hostError({ name: "MemoryAccessViolation" });
    return start;
  }

  /** A copy of guest memory, charging read_memory (`Memory::view`). */
  readMemory(ptr: bigint, len: bigint): Uint8Array {
    this.gas.payBase("read_memory_base");
    this.gas.payPer("read_memory_byte", len);
    return this.readMemoryFree(ptr, len);
  }

  /**
   * Guest memory in place, charging as readMemory: for data the host consumes before the call
   * returns (hashes it, decodes it, copies it into a state key or value), never for data it
   * keeps. Saves a copy (and an ArrayBuffer, which costs the garbage collector) per read.
   */
  viewMemory(ptr: bigint, len: bigint): Uint8Array {
    this.gas.payBase("read_memory_base");
    this.gas.payPer("read_memory_byte", len);
    const start = this.start(ptr, len);
    return this.view.subarray(start, start + Number(len));
  }

  readMemoryFree(ptr: bigint, len: bigint): Uint8Array {
    const start = this.start(ptr, len);
    return this.view.slice(start, start + Number(len));
  }

  writeMemory(ptr: bigint, data: Uint8Array): void {
    this.gas.payBase("write_memory_base");
    this.gas.payPer("write_memory_byte", data.length);
    const start = this.start(ptr, data.length);
    this.view.set(data, start);
    const end = start + data.length;
    if (end > this.hostWriteEnd) this.hostWriteEnd = end;
  }

  readU128(ptr: bigint): bigint {
    const b = this.viewMemory(ptr, 16n);
    const v = new DataView(b.buffer, b.byteOffset, 16);
    return v.getBigUint64(0, true) + (v.getBigUint64(8, true) << 64n);
  }

  writeU128(ptr: bigint, value: bigint): void {
    U128_VIEW.setBigUint64(0, value & U64_MAX, true);
    U128_VIEW.setBigUint64(8, value >> 64n, true);
    this.writeMemory(ptr, U128_SCRATCH); // copied into guest memory: the scratch is free again after
  }

  readU32(ptr: bigint): number {
    const b = this.viewMemory(ptr, 4n);
    return (byteAt(b, 0) | (byteAt(b, 1) << 8) | (byteAt(b, 2) << 16) | (byteAt(b, 3) << 24)) >>> 0;
  }

  // ---- registers ----

  readRegister(id: bigint): Uint8Array {
    const data = this.registers.get(id);
    if (data === undefined) throw hostError({ name: "InvalidRegisterId", fields: { register_id: id } });
    this.gas.payBase("read_register_base");
    this.gas.payPer("read_register_byte", data.length);
    return data;
  }

  /** `Registers::set`; `chargeBytes` false for data the host shares (input, promise results). */
  writeRegister(id: bigint, data: Uint8Array, chargeBytes = true): void {
    this.gas.payBase("write_register_base");
    if (chargeBytes) this.gas.payPer("write_register_byte", data.length);
    // Lengths and usage are exact doubles; a limit beyond 2^53 stays above them when rounded.
    const len = data.length;
    if (len > this.maxRegisterSize) throw hostError({ name: "MemoryAccessViolation" });
    // nearcore quirk kept: at the register-count limit even replacing a register fails.
    if (this.registers.size >= this.config.maxNumberRegisters) throw hostError({ name: "MemoryAccessViolation" });
    const old = this.registers.get(id);
    const usage = this.registersUsage - (old === undefined ? 0 : old.length + 8) + len + 8;
    if (usage > this.registersMemoryLimit) throw hostError({ name: "MemoryAccessViolation" });
    this.registersUsage = usage;
    this.registers.set(id, data);
  }

  /** `get_memory_or_register!`: len = u64::MAX reads register `ptr`. */
  memoryOrRegister(ptr: bigint, len: bigint): Uint8Array {
    return len === U64_MAX ? this.readRegister(ptr) : this.readMemory(ptr, len);
  }

  /** memoryOrRegister for data consumed within the host call (see viewMemory). */
  viewMemoryOrRegister(ptr: bigint, len: bigint): Uint8Array {
    return len === U64_MAX ? this.readRegister(ptr) : this.viewMemory(ptr, len);
  }

  // ---- strings ----

  private logRoom(): bigint {
    const room = this.config.maxTotalLogLength - this.totalLogLength;
    return room > 0n ? room : 0n;
  }

  totalLogLengthExceeded(add: bigint): Error {
    return hostError({ name: "TotalLogLengthExceeded", fields: { length: this.totalLogLength + add, limit: this.config.maxTotalLogLength } });
  }

  /** `get_utf8_string`: len = u64::MAX reads a NUL-terminated string byte by byte. */
  readUtf8(len: bigint, ptr: bigint): string {
    this.gas.payBase("utf8_decoding_base");
    const maxLen = this.logRoom();
    let buf: Uint8Array;
    if (len !== U64_MAX) {
      if (len > maxLen) throw this.totalLogLengthExceeded(len);
      buf = this.viewMemory(ptr, len);
    } else {
      const out: number[] = [];
      for (let i = 0n; i <= maxLen; i++) {
        const el = byteAt(this.readMemory(ptr + i, 1n), 0);
        if (el === 0) break;
        if (i === maxLen) throw this.totalLogLengthExceeded(maxLen + 1n);
        out.push(el);
      }
      buf = Uint8Array.from(out);
    }
    this.gas.payPer("utf8_decoding_byte", buf.length);
    try {
      return utf8.decode(buf);
    } catch {
      throw hostError({ name: "BadUTF8" });
    }
  }

  /** `get_utf16_string`: UTF-16LE, len in bytes; u64::MAX = NUL-terminated (two zero bytes). */
  readUtf16(len: bigint, ptr: bigint): string {
    this.gas.payBase("utf16_decoding_base");
    const maxLen = this.logRoom();
    let buf: Uint8Array;
    if (len === U64_MAX) {
      let n = 0n;
      for (;;) {
        const u = this.readMemory(ptr + n, 2n);
        if (u[0] === 0 && u[1] === 0) break;
        n += 2n;
        if (n > maxLen) throw this.totalLogLengthExceeded(n);
      }
      len = n;
      buf = this.readMemoryFree(ptr, n);
    } else {
      buf = this.readMemory(ptr, len);
    }
    if (buf.length % 2 !== 0) throw hostError({ name: "BadUTF16" });
    if (len > maxLen) throw this.totalLogLengthExceeded(len);
    this.gas.payPer("utf16_decoding_byte", len);
    try {
      return utf16.decode(buf);
    } catch {
      throw hostError({ name: "BadUTF16" });
    }
  }

  /** `read_and_parse_account_id`. */
  readAccountId(ptr: bigint, len: bigint): string {
    const buf = this.viewMemoryOrRegister(ptr, len);
    this.gas.payBase("utf8_decoding_base");
    this.gas.payPer("utf8_decoding_byte", buf.length);
    let id: string;
    try {
      id = utf8.decode(buf);
    } catch {
      throw hostError({ name: "BadUTF8" });
    }
    if (!isValidAccountId(id)) throw hostError({ name: "InvalidAccountId" });
    return id;
  }

  /** A borsh public key; decoding errors surface only when the key is used (`PublicKeyBuffer`). */
  readPublicKey(ptr: bigint, len: bigint): () => PublicKey {
    const data = this.memoryOrRegister(ptr, len);
    let key: PublicKey | undefined;
    try {
      const decoded = publicKeyFromBorsh(data);
      if (decoded.read === data.length) key = decoded.key;
    } catch {
      key = undefined;
    }
    return () => {
      if (key === undefined) throw hostError({ name: "InvalidPublicKey" });
      return key;
    };
  }

  // ---- logs ----

  checkCanLog(): void {
    if (this.logs.length >= this.config.maxNumberLogs) {
      throw hostError({ name: "NumberOfLogsExceeded", fields: { limit: BigInt(this.config.maxNumberLogs) } });
    }
  }

  pushLog(message: string): void {
    const len = BigInt(utf8Length(message));
    if (this.totalLogLength + len > this.config.maxTotalLogLength) throw this.totalLogLengthExceeded(len);
    this.totalLogLength += len;
    this.logs.push(message);
  }

  // ---- promises ----

  deductBalance(amount: bigint): void {
    if (amount > this.balance) throw hostError({ name: "BalanceExceeded" });
    this.balance -= amount;
  }

  /**
   * The deposit of a promise's function call (nearcore `one_yocto_on_promise`, on from protocol
   * 85): exactly 1 yoctoNEAR on a contract whose balance is zero is not deducted but counted as
   * subsidized, so that a zero-balance account can call methods that ask for 1 yocto.
   */
  deductFunctionCallDeposit(amount: bigint): void {
    if (amount === 1n && this.balance === 0n) this.subsidizedAmount += amount;
    else this.deductBalance(amount);
  }

  pushPromise(p: Promise): bigint {
    this.promises.push(p);
    const limit = this.config.maxPromisesPerFunctionCallAction;
    if (this.promises.length > limit) {
      throw hostError({ name: "NumberPromisesExceeded", fields: { number_of_promises: BigInt(this.promises.length), limit: BigInt(limit) } });
    }
    return BigInt(this.promises.length - 1);
  }

  promise(idx: bigint): Promise {
    const p = idx < BigInt(this.promises.length) ? this.promises[Number(idx)] : undefined;
    if (p === undefined) throw hostError({ name: "InvalidPromiseIndex", fields: { promise_idx: idx } });
    return p;
  }

  /** `promise_idx_to_receipt_idx_with_sir`. */
  receiptOf(idx: bigint): { receipt: number; sir: boolean } {
    const p = this.promise(idx);
    if (!("receipt" in p)) throw hostError({ name: "CannotAppendActionToJointPromise" });
    return { receipt: p.receipt, sir: this.receipts.receiverOf(p.receipt) === this.context.currentAccountId };
  }

  /** `pay_gas_for_new_receipt`: the receipt's send fee and data-receipt base fees burnt, its exec fee reserved. */
  payForNewReceipt(sir: boolean, dependenciesSir: readonly boolean[]): void {
    const f = this.fees;
    let burn = sendFee(f.actionReceiptCreation, sir);
    for (const dep of dependenciesSir) burn += sendFee(f.dataReceiptCreationBase, dep) + f.dataReceiptCreationBase.execution;
    this.gas.payAction(burn, burn + f.actionReceiptCreation.execution, "new_action_receipt");
  }

  /** `pay_action_base`; `action` is nearcore's ActionCosts name (for the gas profile). */
  payActionBase(fee: Fee, sir: boolean, action: string): void {
    const burn = sendFee(fee, sir);
    this.gas.payAction(burn, burn + fee.execution, action);
  }

  payActionPerByte(fee: Fee, bytes: bigint, sir: boolean, action: string): void {
    const burn = sendFee(fee, sir) * bytes;
    this.gas.payAction(burn, burn + fee.execution * bytes, action);
  }
}

function sendFee(fee: Fee, sir: boolean): bigint {
  return sir ? fee.sendSir : fee.sendNotSir;
}
