import type { CacheEntry } from "./NodeCache.js";
import type { StoredNode } from "./storedNode.js";

/**
 * Immutable trie nodes. Nodes are never mutated after construction except for the lazily
 * memoised `hash` (and a reference's `held` handle, a cache of its source), so any number of
 * state roots can share them.
 *
 * Keys and values are latin1 strings (one char per byte). A leaf keeps its full key plus the
 * nibble depth it sits at: the remaining path is `key` from `depth`, so no per-leaf path
 * string is stored. A branch keeps only its present children, in nibble order, addressed
 * through a 16-bit mask; most branches deep in a large trie have 2-3 children.
 */

export class LeafNode {
  /** sha256 of the node encoding as a 32-char latin1 string, computed on first use. */
  hash: string | undefined = undefined;
  constructor(
    readonly key: string,
    readonly value: string,
    readonly depth: number,
  ) {}
}

export class ExtensionNode {
  hash: string | undefined = undefined;
  constructor(
    /** Nibble path (char codes 0..15), never empty. */
    readonly path: string,
    /** Always a branch (or a reference to one): two extensions or an extension and a leaf would have merged. */
    readonly child: BranchNode | HashNode,
  ) {}
}

export class BranchNode {
  hash: string | undefined = undefined;
  constructor(
    /** Bit n set = a child for nibble n. */
    readonly mask: number,
    /** Present children in nibble order (length = popcount(mask)). */
    readonly children: readonly TrieNode[],
    /** Value of the key that ends exactly at this branch, if any. */
    readonly value: string | undefined,
    /** That key (kept so iteration needs no path reconstruction). */
    readonly valueKey: string | undefined,
  ) {}
}

/** Where the nodes behind {@link HashNode} references are read from (an on-disk node store). */
export interface NodeSource {
  /**
   * The node `ref` names, sitting `depth` nibbles deep: `path` is any latin1 string whose
   * first `depth` nibbles are the node's position (leaves and branch values get their full
   * keys from it, since the stored encoding keeps just the part below the node). The source
   * may keep a handle on what it loaded in `ref.held`, so the next walk through `ref` skips
   * the lookup by hash.
   */
  load(ref: HashNode, path: string | NodePath, depth: number): LeafNode | ExtensionNode | BranchNode;
}

/**
 * A walk's position when it is cheaper to ask than to build: most loads (extensions, branches
 * without a value, a leaf met again where it was before) never need the path as a string.
 */
export interface NodePath {
  /** The first `depth` nibbles as latin1 bytes (as NodeSource.load's `path`). */
  path(depth: number): string;
  /** True when `key` starts with the first `depth` nibbles of this path. */
  leads(key: string, depth: number): boolean;
}

/**
 * A node known by its hash alone, read from its source when a walk reaches it. The on-disk store
 * hands out tries whose untouched parts are such references, so a trie never has to be in
 * memory as a whole. Callers resolve it with the path they walked (see {@link resolveNode}).
 */
export class HashNode {
  /**
   * The source's handle on the node last loaded through this reference (DiskStateStore: its
   * node cache entry, emptied when the cache drops it, so holding it keeps nothing evicted alive).
   */
  held: CacheEntry<StoredNode> | undefined = undefined;
  constructor(
    readonly hash: string,
    readonly source: NodeSource,
  ) {}
}

export type TrieNode = LeafNode | ExtensionNode | BranchNode | HashNode;
export type LoadedNode = LeafNode | ExtensionNode | BranchNode;

/** The node itself, or for a reference the node it names (`path`/`depth` as in NodeSource.load). */
export function resolveNode(node: TrieNode, path: string, depth: number): LoadedNode {
  return node instanceof HashNode ? node.source.load(node, path, depth) : node;
}

/** A latin1 path string for the node under nibble `n` of a node at `depth` on `path`. */
export function childPath(path: string, depth: number, n: number): string {
  const byte = depth >> 1;
  const head = path.slice(0, byte);
  const c = (depth & 1) === 0 ? n << 4 : (path.charCodeAt(byte) & 0xf0) | n;
  return head + String.fromCharCode(c);
}
