import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * A CommonJS module, loaded on the first call rather than at import. For @noble/curves' pairing
 * curves: evaluating bls12-381 and bn254 precomputes their towers and tables (~90 ms, a fifth of
 * `shardkit serve`'s startup), and few contracts ever call them.
 */
export function loadedOnFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
