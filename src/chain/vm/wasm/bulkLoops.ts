import type { ByteWriter } from "./byteWriter.js";
import type { LocalTypes } from "./functionContext.js";
import { type GasPoint, PointKind } from "./gasAnalysis.js";
import { Op, type Operator } from "./operators.js";
import { ValType } from "./wasmTypes.js";
import { at } from "../../must.js";

/**
 * Byte loops run as one bulk operation with one gas charge (gas in globals only).
 *
 * AssemblyScript's size-optimised memmove and memset are counted byte loops, metered as
 * finite-wasm meters any loop: one charge per straight-line segment, four per byte for the
 * copy (plus a write mark per store). For a loop of one of these exact shapes
 *
 *   forward copy   loop (local.get n) if  *d++ = *s++ (via temporaries t1, t2); n -= 1; br 1  end end
 *   backward copy  loop (local.get n) if  n -= 1; d[n] = s[n];                          br 1  end end
 *   fill           loop (local.get n) if  *d++ = CONST (via temporary t); n -= 1;      br 1  end end
 *
 * a guarded prologue before the `loop` does all n taken iterations at once: it charges
 * n × (the fees of the points of one taken iteration) to the gas global, raises the write
 * mark to the last byte stored, runs memory.copy / memory.fill and leaves the locals as the
 * loop would (n = 0, pointers advanced, temporaries at the last byte); the untouched loop then
 * runs its exit check as before. The guard takes this path only when the per-iteration
 * sequence could neither trap nor reach the gas limit nor call the host: n > 0, every byte
 * accessed lies in memory, the armed gas covers the whole charge (so no checkpoint would have
 * run between iterations), and the byte order of the loop gives memmove's result for the
 * overlap at hand. Otherwise the original loop runs, charge by charge. Burnt gas, errors,
 * memory and locals are therefore those of the per-iteration code at every point where they
 * can be observed.
 */

const BULK_LOOP_KINDS = ["forwardCopy", "backwardCopy", "fill"] as const;
export type BulkLoopKind = (typeof BULK_LOOP_KINDS)[number];

export interface BulkLoop {
  readonly kind: BulkLoopKind;
  /** Offset of the `loop` operator: the prologue goes right before it (after its charges). */
  readonly start: number;
  readonly n: number;
  readonly dest: number;
  /** Copies: the source pointer local. */
  readonly src: number;
  /** Temporaries the loop leaves at the last byte's address (-1: none). */
  readonly destTemp: number;
  readonly srcTemp: number;
  /** Fill: the stored byte (an i32 constant; store8 keeps its low 8 bits). */
  readonly value: number;
  /** Gas of one taken iteration. */
  readonly iterationFee: bigint;
}

type Step = (op: Operator) => boolean;
/** A step, or [opcode, name]: a local.* operator whose local index is bound to `name`. */
type Pattern = readonly (Step | readonly [number, string])[];

const is =
  (code: number, check?: (op: Operator) => boolean): Step =>
  (op) =>
    op.code === code && (check === undefined || check(op));
const constI32 = (value: number): Step => is(Op.i32Const, (op) => op.value === value);

const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_LOAD8_U = 0x2d;
const I32_STORE8 = 0x3a;

/** Matches `ops[start..]` against steps; local indices are captured into `bind` by name. */
function match(
  ops: readonly Operator[],
  start: number,
  pattern: Pattern,
  bind: Map<string, number>,
): boolean {
  if (start + pattern.length > ops.length) return false;
  for (let k = 0; k < pattern.length; k++) {
    const op = at(ops, start + k);
    const step = at(pattern, k);
    if (typeof step === "function") {
      if (!step(op)) return false;
      continue;
    }
    const [code, name] = step;
    if (op.code !== code) return false;
    const known = bind.get(name);
    if (known === undefined) bind.set(name, op.index!);
    else if (known !== op.index) return false;
  }
  return true;
}

const G = Op.localGet;
const S = Op.localSet;
const T = Op.localTee;
const noOffset = (code: number): Step => is(code, (op) => (op.offset ?? 0) === 0);

const HEAD: Pattern = [is(Op.loop, (op) => op.blockType?.kind === "empty"), [G, "n"], is(Op.if, (op) => op.blockType?.kind === "empty")];
const TAIL: Pattern = [is(Op.br, (op) => op.depth === 1), is(Op.end), is(Op.end)];
const DEC_N: Pattern = [[G, "n"], constI32(1), is(I32_SUB), [S, "n"]];

const BODIES: Record<BulkLoopKind, Pattern> = {
  forwardCopy: [
    [G, "d"], [T, "t1"], constI32(1), is(I32_ADD), [S, "d"],
    [G, "s"], [T, "t2"], constI32(1), is(I32_ADD), [S, "s"],
    [G, "t1"], [G, "t2"], noOffset(I32_LOAD8_U), noOffset(I32_STORE8),
    ...DEC_N,
  ],
  backwardCopy: [
    [G, "d"], [G, "n"], constI32(1), is(I32_SUB), [T, "n"], is(I32_ADD),
    [G, "s"], [G, "n"], is(I32_ADD),
    noOffset(I32_LOAD8_U), noOffset(I32_STORE8),
  ],
  fill: [
    [G, "d"], [T, "t1"], constI32(1), is(I32_ADD), [S, "d"],
    [G, "t1"], is(Op.i32Const), noOffset(I32_STORE8),
    ...DEC_N,
  ],
};

/**
 * The byte loops of a function body (see the header). `points` are the body's gas points:
 * an iteration's fee is the sum of those from the first instruction inside the loop to its
 * `br`, all executed once per taken iteration (the body is straight-line).
 */
export function findBulkLoops(ops: readonly Operator[], points: readonly GasPoint[], locals: LocalTypes): BulkLoop[] {
  const loops: BulkLoop[] = [];
  for (let i = 0; i < ops.length; i++) {
    if (at(ops, i).code !== Op.loop) continue;
    for (const kind of BULK_LOOP_KINDS) {
      const bind = new Map<string, number>();
      const body = BODIES[kind];
      if (!match(ops, i, [...HEAD, ...body, ...TAIL], bind)) continue;
      const names = [...bind.keys()];
      const indices = names.map((name) => bind.get(name)!);
      if (new Set(indices).size !== indices.length) continue; // distinct locals only
      if (indices.some((index) => locals.typeOf(index) !== ValType.i32)) continue;
      const first = at(ops, i + 1).start;
      const br = at(ops, i + HEAD.length + body.length).start;
      let fee = 0n;
      let entry = false;
      for (const p of points) {
        if (p.offset < first || p.offset > br) continue;
        if (p.kind === PointKind.unreachable || p.kind === PointKind.aggregate || p.fee.linear !== 0) {
          fee = -1n;
          break;
        }
        if (p.offset === first) entry = true;
        fee += BigInt(p.fee.constant);
      }
      // The loop's entry charge must sit on its first instruction (branch target), and
      // u32::MAX iterations must not overflow the i64 charge.
      if (!entry || fee <= 0n || fee * 0xffff_ffffn >= 1n << 63n) continue;
      const valueOp = kind === "fill" ? at(ops, i + HEAD.length + 6) : undefined;
      loops.push({
        kind,
        start: at(ops, i).start,
        n: bind.get("n")!,
        dest: bind.get("d")!,
        src: bind.get("s") ?? -1,
        destTemp: bind.get("t1") ?? -1,
        srcTemp: bind.get("t2") ?? -1,
        value: valueOp?.value ?? 0,
        iterationFee: fee,
      });
      break;
    }
  }
  return loops;
}

const GLOBAL_GET = 0x23;
const GLOBAL_SET = 0x24;
const I32_EQZ = 0x45;
const I32_LT_U = 0x49;
const I32_GT_U = 0x4b;
const I32_AND = 0x71;
const I64_EXTEND_I32_U = 0xad;
const I64_MUL = 0x7e;
const I64_ADD = 0x7c;
const I64_SUB = 0x7d;
const I64_SHL = 0x86;
const I64_GT_U = 0x56;
const I64_LT_S = 0x53;

export interface BulkLoopGlobals {
  readonly gas: number;
  /** The write mark global, when writes are tracked. */
  readonly mark: number | undefined;
}

/**
 * Emits the guarded prologue for `loop` (see the header). `fee` is an i64 scratch local and
 * `last` an i32 scratch local.
 */
export function emitBulkLoop(w: ByteWriter, loop: BulkLoop, globals: BulkLoopGlobals, fee: number, last: number): void {
  const get = (local: number): ByteWriter => w.u8(Op.localGet).varU32(local);
  const set = (local: number): ByteWriter => w.u8(Op.localSet).varU32(local);
  const { n, dest, src } = loop;

  w.u8(Op.block).u8(0x40);
  // n == 0: nothing to do in bulk.
  get(n).u8(I32_EQZ).u8(Op.brIf).varU32(0);
  // fee = n × iteration fee; the armed gas must cover it (no checkpoint in between).
  get(n).u8(I64_EXTEND_I32_U).u8(Op.i64Const).varS64(loop.iterationFee).u8(I64_MUL);
  set(fee);
  w.u8(GLOBAL_GET).varU32(globals.gas);
  get(fee).u8(I64_LT_S).u8(Op.brIf).varU32(0); // gas < fee
  // Every byte in memory: base + n <= memory bytes (in i64, no wrap).
  const inBounds = (base: number): void => {
    get(base).u8(I64_EXTEND_I32_U);
    get(n).u8(I64_EXTEND_I32_U).u8(I64_ADD);
    w.u8(Op.memorySize).u8(0x00).u8(I64_EXTEND_I32_U).u8(Op.i64Const).varS64(16n).u8(I64_SHL);
    w.u8(I64_GT_U).u8(Op.brIf).varU32(0);
  };
  inBounds(dest);
  if (loop.kind !== "fill") {
    inBounds(src);
    // The byte order gives memmove's result unless the destination starts inside the source
    // ahead of it (forward copy) or the source inside the destination (backward copy).
    const [lo, hi] = loop.kind === "forwardCopy" ? [src, dest] : [dest, src];
    get(hi);
    get(lo).u8(I32_GT_U);
    get(hi);
    get(lo).u8(I32_SUB);
    get(n).u8(I32_LT_U);
    w.u8(I32_AND).u8(Op.brIf).varU32(0);
  }
  // Charge (within the armed budget: stays >= 0).
  w.u8(GLOBAL_GET).varU32(globals.gas);
  get(fee).u8(I64_SUB).u8(GLOBAL_SET).varU32(globals.gas);
  // last = dest + n - 1: the highest address the loop stores to.
  get(dest);
  get(n).u8(I32_ADD).u8(Op.i32Const).varS32(1).u8(I32_SUB).u8(Op.localSet).varU32(last);
  if (globals.mark !== undefined) {
    get(last).u8(GLOBAL_GET).varU32(globals.mark).u8(I32_GT_U);
    w.u8(Op.if).u8(0x40);
    get(last).u8(GLOBAL_SET).varU32(globals.mark);
    w.u8(Op.end);
  }
  if (loop.kind === "fill") {
    get(dest).u8(Op.i32Const).varS32(loop.value);
    get(n);
    w.u8(0xfc).varU32(0x0b).u8(0x00); // memory.fill
  } else {
    get(dest);
    get(src);
    get(n);
    w.u8(0xfc).varU32(0x0a).u8(0x00).u8(0x00); // memory.copy
  }
  // The locals as the loop leaves them.
  if (loop.kind !== "backwardCopy") {
    if (loop.srcTemp >= 0) {
      get(src);
      get(n).u8(I32_ADD).u8(Op.i32Const).varS32(1).u8(I32_SUB);
      set(loop.srcTemp);
      get(src);
      get(n).u8(I32_ADD);
      set(src);
    }
    get(last);
    set(loop.destTemp);
    get(dest);
    get(n).u8(I32_ADD);
    set(dest);
  }
  w.u8(Op.i32Const).varS32(0);
  set(n);
  w.u8(Op.end);
}
