import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/**
 * An invariant of shardkit's own code did not hold (an index past the end of an array the code
 * sized itself, a map entry the code put there missing): a bug in shardkit, never bad input.
 */
export class InvariantError extends ShardkitError<"INTERNAL_INVARIANT"> {
  override name = "InvariantError";

  constructor(what: string) {
    super("INTERNAL_INVARIANT", `internal error: ${what}`);
  }
}

/** `value`, which the caller's invariants say is there; `what` names it when it is not. */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new InvariantError(`${what} is missing`);
  return value;
}

/**
 * `items[i]`, which the caller's loop bounds keep in range. V8 inlines it; typed arrays have
 * their own functions below (one shared read over many kinds of array would go megamorphic).
 */
export function at<T>(items: readonly T[], i: number): T {
  const value = items[i];
  return value !== undefined ? value : outOfRange(i, items.length);
}

/**
 * `bytes[i]` for loops. Each element type has its own function so that its element read sees
 * one kind of array (V8 inlines a monomorphic read; `at` over mixed arrays is several times
 * slower there), and the throw is a call of its own so the function stays small enough for V8
 * to inline at every site of a long loop body. Still not free: the hottest loops (sha256's
 * compression, the gas counter's charges) keep `x[i]!`, measured 10-25% faster.
 */
export function byteAt(bytes: Uint8Array, i: number): number {
  const value = bytes[i];
  return value !== undefined ? value : outOfRange(i, bytes.length);
}

/** `words[i]` for hot loops (see `byteAt`). */
export function int32At(words: Int32Array, i: number): number {
  const value = words[i];
  return value !== undefined ? value : outOfRange(i, words.length);
}

function outOfRange(i: number, length: number): never {
  throw new InvariantError(`index ${i} outside a list of ${length}`);
}
