/**
 * Nibble helpers over latin1 byte strings. The trie branches 16 ways, one nibble (half a
 * byte, high half first) per level, so nibble order equals raw byte order of keys.
 * Extension paths are stored as strings whose char codes are nibbles (0..15).
 */

/** The `i`-th nibble of a latin1 key (0 = high half of byte 0). */
export function nibbleAt(key: string, i: number): number {
  const c = key.charCodeAt(i >> 1);
  return (i & 1) === 0 ? c >> 4 : c & 15;
}

/** Nibbles [from, to) of `key` as a nibble-path string. */
export function nibblePath(key: string, from: number, to: number): string {
  let out = "";
  for (let i = from; i < to; i++) out += String.fromCharCode(nibbleAt(key, i));
  return out;
}

/** Number of leading nibbles of `key` from `depth` that equal `path` (stops at the key's end). */
export function matchPath(key: string, depth: number, path: string): number {
  const limit = Math.min(path.length, key.length * 2 - depth);
  let i = 0;
  while (i < limit && nibbleAt(key, depth + i) === path.charCodeAt(i)) i++;
  return i;
}

/** Number of set bits in a 16-bit child mask. */
export function popcount16(mask: number): number {
  let m = mask - ((mask >> 1) & 0x5555);
  m = (m & 0x3333) + ((m >> 2) & 0x3333);
  m = (m + (m >> 4)) & 0x0f0f;
  return (m + (m >> 8)) & 0x1f;
}

/** Index of nibble `n`'s child in a compact children array. */
export function childSlot(mask: number, n: number): number {
  return popcount16(mask & ((1 << n) - 1));
}
