import { nibbleAt, nibblePath } from "./nibbles.js";
import { BranchNode, ExtensionNode, LeafNode, type TrieNode } from "./trieNode.js";
import { at } from "../must.js";

/**
 * Builds the canonical subtrie holding keys[lo..hi) (strictly increasing latin1 strings,
 * all sharing their first `depth` nibbles) in one pass: O(n · levels), no node rebuilt.
 * The shape depends only on the key set, which is what makes root hashes independent of
 * insertion order and batching.
 */
export function buildSubtrie(
  keys: readonly string[],
  values: readonly string[],
  lo: number,
  hi: number,
  depth: number,
): TrieNode | null {
  if (lo >= hi) return null;
  if (hi - lo === 1) return new LeafNode(at(keys, lo), at(values, lo), depth);
  // In a sorted range the common prefix of all keys is that of the first and the last.
  const first = at(keys, lo);
  const last = at(keys, hi - 1);
  const max = Math.min(first.length, last.length) * 2;
  let split = depth;
  while (split < max && nibbleAt(first, split) === nibbleAt(last, split)) split++;
  const branch = buildBranch(keys, values, lo, hi, split);
  return split > depth ? new ExtensionNode(nibblePath(first, depth, split), branch) : branch;
}

function buildBranch(
  keys: readonly string[],
  values: readonly string[],
  lo: number,
  hi: number,
  depth: number,
): BranchNode {
  let value: string | undefined;
  let valueKey: string | undefined;
  let i = lo;
  // A key ending exactly here sorts first and becomes the branch value.
  if (at(keys, i).length * 2 === depth) {
    valueKey = at(keys, i);
    value = at(values, i);
    i++;
  }
  let mask = 0;
  const children: TrieNode[] = [];
  while (i < hi) {
    const n = nibbleAt(at(keys, i), depth);
    let j = i + 1;
    while (j < hi && nibbleAt(at(keys, j), depth) === n) j++;
    mask |= 1 << n;
    children.push(buildSubtrie(keys, values, i, j, depth + 1)!);
    i = j;
  }
  return new BranchNode(mask, children, value, valueKey);
}
