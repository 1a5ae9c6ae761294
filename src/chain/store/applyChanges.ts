import { buildSubtrie } from "./buildSubtrie.js";
import { matchPath, nibbleAt } from "./nibbles.js";
import { BranchNode, ExtensionNode, LeafNode, childPath, resolveNode, type TrieNode } from "./trieNode.js";
import { at } from "../must.js";

/** A batch of writes: strictly increasing keys; a `null` value deletes the key. */
export interface SortedChanges {
  readonly keys: readonly string[];
  readonly values: readonly (string | null)[];
}

/**
 * Applies a sorted change set to the (immutable) trie under `root` and returns the new root.
 * Each node on a changed path is rebuilt exactly once: a node receives the whole contiguous
 * range of changes that falls under it, splits it among its children and rebuilds itself
 * after all of them. Untouched subtrees (and their memoised hashes) are shared.
 */
export function applyChanges(root: TrieNode | null, changes: SortedChanges): TrieNode | null {
  return applyRange(root, 0, changes.keys, changes.values, 0, changes.keys.length);
}

function applyRange(
  node: TrieNode | null,
  depth: number,
  keys: readonly string[],
  values: readonly (string | null)[],
  lo: number,
  hi: number,
): TrieNode | null {
  if (lo >= hi) return node;
  if (node === null) return buildFromWrites(keys, values, lo, hi, depth, undefined);
  // Every key routed here runs through this node's position, so any of them is its path.
  node = resolveNode(node, at(keys, lo), depth);
  if (node instanceof LeafNode) {
    if (hi - lo === 1 && keys[lo] === node.key) {
      const v = at(values, lo);
      if (v === null) return null;
      return v === node.value ? node : new LeafNode(node.key, v, depth);
    }
    return buildFromWrites(keys, values, lo, hi, depth, node);
  }
  if (node instanceof ExtensionNode) {
    const len = node.path.length;
    // Sorted range: if the first and last keys run through the whole path, all do.
    if (matchPath(at(keys, lo), depth, node.path) === len && matchPath(at(keys, hi - 1), depth, node.path) === len) {
      const child = applyRange(node.child, depth + len, keys, values, lo, hi);
      if (child === node.child) return node;
      return prependPath(node.path, child, depth);
    }
    // Some key leaves the path: open the extension into a one-child branch and let the
    // branch logic split and re-normalise it.
    const rest = len > 1 ? new ExtensionNode(node.path.slice(1), node.child) : node.child;
    const opened = new BranchNode(1 << node.path.charCodeAt(0), [rest], undefined, undefined);
    const result = applyBranch(opened, depth, keys, values, lo, hi);
    return result === opened ? node : result; // only deletes of absent keys: keep the original
  }
  return applyBranch(node, depth, keys, values, lo, hi);
}

function applyBranch(
  node: BranchNode,
  depth: number,
  keys: readonly string[],
  values: readonly (string | null)[],
  lo: number,
  hi: number,
): TrieNode | null {
  let changed = false;
  let value = node.value;
  let valueKey = node.valueKey;
  let i = lo;
  if (at(keys, i).length * 2 === depth) {
    const v = at(values, i);
    if (v === null) {
      changed = value !== undefined;
      value = undefined;
      valueKey = undefined;
    } else if (v !== value) {
      changed = true;
      value = v;
      valueKey = at(keys, i);
    }
    i++;
  }
  // Expand to 16 slots, rewrite the slots that receive changes, then compact again.
  const slots: (TrieNode | null)[] = new Array<TrieNode | null>(16).fill(null);
  for (let n = 0, k = 0; n < 16; n++) if ((node.mask >> n) & 1) slots[n] = at(node.children, k++);
  while (i < hi) {
    const n = nibbleAt(at(keys, i), depth);
    let j = i + 1;
    while (j < hi && nibbleAt(at(keys, j), depth) === n) j++;
    const next = applyRange(at(slots, n), depth + 1, keys, values, i, j);
    if (next !== slots[n]) {
      slots[n] = next;
      changed = true;
    }
    i = j;
  }
  if (!changed) return node;
  let mask = 0;
  const children: TrieNode[] = [];
  for (let n = 0; n < 16; n++) {
    const c = at(slots, n);
    if (c !== null) {
      mask |= 1 << n;
      children.push(c);
    }
  }
  return normalise(mask, children, value, valueKey, depth, at(keys, lo));
}

/** Restores canonical form after a branch lost children or its value. */
function normalise(
  mask: number,
  children: TrieNode[],
  value: string | undefined,
  valueKey: string | undefined,
  depth: number,
  path: string,
): TrieNode | null {
  if (children.length === 0) {
    return value === undefined ? null : new LeafNode(valueKey!, value, depth);
  }
  if (children.length === 1 && value === undefined) {
    const n = 31 - Math.clz32(mask);
    // The lone child may be an untouched reference: its kind decides the merge.
    const child = resolveNode(at(children, 0), childPath(path, depth, n), depth + 1);
    return prependPath(String.fromCharCode(n), child, depth);
  }
  return new BranchNode(mask, children, value, valueKey);
}

/** The node equivalent to `path` followed by `child`, with `child` moved up to `depth`. */
function prependPath(path: string, child: TrieNode | null, depth: number): TrieNode | null {
  if (child === null) return null;
  if (child instanceof LeafNode) return new LeafNode(child.key, child.value, depth);
  if (child instanceof ExtensionNode) return new ExtensionNode(path + child.path, child.child);
  return new ExtensionNode(path, child);
}

/** Merges the writes in [lo, hi) with an optional existing leaf and builds them fresh. */
function buildFromWrites(
  keys: readonly string[],
  values: readonly (string | null)[],
  lo: number,
  hi: number,
  depth: number,
  leaf: LeafNode | undefined,
): TrieNode | null {
  const outKeys: string[] = [];
  const outValues: string[] = [];
  // The existing leaf until it is merged in (dropped when a write to its key replaces it).
  let pending = leaf;
  for (let i = lo; i < hi; i++) {
    const k = at(keys, i);
    if (pending !== undefined && pending.key <= k) {
      if (pending.key < k) {
        outKeys.push(pending.key);
        outValues.push(pending.value);
      }
      pending = undefined;
    }
    const v = at(values, i);
    if (v !== null) {
      outKeys.push(k);
      outValues.push(v);
    }
  }
  if (pending !== undefined) {
    outKeys.push(pending.key);
    outValues.push(pending.value);
  }
  const built = buildSubtrie(outKeys, outValues, 0, outKeys.length, depth);
  // Keep the old leaf object (and its memoised hash) when nothing about it changed.
  if (leaf !== undefined && built instanceof LeafNode && built.key === leaf.key && built.value === leaf.value) {
    return leaf;
  }
  return built;
}
