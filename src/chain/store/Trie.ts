import { latin1ToBytes } from "../primitives/latin1.js";
import { applyChanges, type SortedChanges } from "./applyChanges.js";
import { buildSubtrie } from "./buildSubtrie.js";
import { nodeHash } from "./nodeEncoding.js";
import { childSlot, matchPath, nibbleAt } from "./nibbles.js";
import { proveTrie } from "./proveTrie.js";
import { scanTrie, type ScanVisitor } from "./scanTrie.js";
import { ExtensionNode, HashNode, LeafNode, type TrieNode } from "./trieNode.js";
import { at } from "../must.js";

const EMPTY_ROOT_LATIN1 = "\0".repeat(32);

/**
 * A persistent Merkle Patricia trie over nibbles: an immutable value. `apply` returns a new
 * trie sharing every untouched node with this one, so each historical state root stays
 * readable for as long as it is referenced. Keys and values are latin1 byte strings.
 */
export class Trie {
  static readonly EMPTY = new Trie(null);

  private constructor(readonly root: TrieNode | null) {}

  /** The trie under `root` (an on-disk store's reference or freshly built nodes). */
  static of(root: TrieNode | null): Trie {
    return root === null ? Trie.EMPTY : new Trie(root);
  }

  /** Builds a trie from strictly increasing keys in one pass (used for genesis). */
  static fromSorted(keys: readonly string[], values: readonly string[]): Trie {
    if (keys.length !== values.length) throw new RangeError("keys and values differ in length");
    for (let i = 1; i < keys.length; i++) {
      if (!(at(keys, i - 1) < at(keys, i))) throw new RangeError(`keys not strictly increasing at index ${i}`);
    }
    return new Trie(buildSubtrie(keys, values, 0, keys.length, 0));
  }

  /** Returns a new trie with the batch applied (this one is unchanged). */
  apply(changes: SortedChanges): Trie {
    const { keys, values } = changes;
    if (keys.length !== values.length) throw new RangeError("keys and values differ in length");
    for (let i = 1; i < keys.length; i++) {
      if (!(at(keys, i - 1) < at(keys, i))) throw new RangeError(`change keys not strictly increasing at index ${i}`);
    }
    const root = applyChanges(this.root, changes);
    return root === this.root ? this : new Trie(root);
  }

  /** Root hash as a 32-char latin1 string; 32 zero bytes for the empty trie. */
  rootHashLatin1(): string {
    return this.root === null ? EMPTY_ROOT_LATIN1 : nodeHash(this.root);
  }

  /** Root hash as 32 bytes. */
  rootHash(): Uint8Array {
    return latin1ToBytes(this.rootHashLatin1());
  }

  get(key: string): string | undefined {
    let node = this.root;
    let depth = 0;
    while (node !== null) {
      if (node instanceof HashNode) node = node.source.load(node, key, depth);
      if (node instanceof LeafNode) return node.key === key ? node.value : undefined;
      if (node instanceof ExtensionNode) {
        if (matchPath(key, depth, node.path) !== node.path.length) return undefined;
        depth += node.path.length;
        node = node.child;
        continue;
      }
      if (key.length * 2 === depth) return node.value;
      const n = nibbleAt(key, depth);
      if (((node.mask >> n) & 1) === 0) return undefined;
      node = at(node.children, childSlot(node.mask, n));
      depth++;
    }
    return undefined;
  }

  /** In-order visit of keys under `prefix`, strictly after `after` when given. */
  scan(prefix: string, after: string | undefined, visit: ScanVisitor): void {
    scanTrie(this.root, prefix, after, visit);
  }

  /** Collects [key, value] pairs under `prefix` (convenience for small ranges and tests). */
  entries(prefix = "", after?: string): [string, string][] {
    const out: [string, string][] = [];
    this.scan(prefix, after, (k, v) => {
      out.push([k, v]);
    });
    return out;
  }

  /** Completeness proof for everything under `prefix` (see proveTrie). */
  prove(prefix: string): Uint8Array[] {
    return proveTrie(this.root, prefix);
  }
}
