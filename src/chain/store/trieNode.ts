/**
 * Immutable trie nodes. Nodes are never mutated after construction except for the lazily
 * memoised `hash`, so any number of state roots can share them.
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
    /** Always a branch: two extensions or an extension and a leaf would have merged. */
    readonly child: BranchNode,
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

export type TrieNode = LeafNode | ExtensionNode | BranchNode;
