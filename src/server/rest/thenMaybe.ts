import type { Awaitable } from "../../indexer/IndexStore.js";

/**
 * Applies `next` to a value that may still be pending: at once for the in-memory index (no
 * microtask on the hot path), after it settles for a shared engine.
 */
export function thenMaybe<T, R>(value: Awaitable<T>, next: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
