import { childSlot, nibbleAt } from "./nibbles.js";
import { BranchNode, ExtensionNode, HashNode, LeafNode, type TrieNode } from "./trieNode.js";
import { NibbleTrail } from "./nibbleTrail.js";
import { at } from "../must.js";

/** Receives entries in key order; return `false` to stop the scan. */
export type ScanVisitor = (key: string, value: string) => boolean | void;

/**
 * Visits, in raw byte order, every key that starts with `prefix` and (when given) is
 * strictly greater than `after`. Cost is O(depth + k): it descends once along the prefix,
 * prunes every subtree wholly at or below the cursor, and stops as soon as `visit` says so.
 */
export function scanTrie(
  root: TrieNode | null,
  prefix: string,
  after: string | undefined,
  visit: ScanVisitor,
): void {
  if (root === null) return;
  new Scan(prefix, after, visit).walk(root, 0, after !== undefined);
}

class Scan {
  private readonly prefixNibbles: number;
  private readonly afterNibbles: number;
  /** Nibbles walked so far: the position handed to on-disk references when they load. */
  private readonly trail = new NibbleTrail();

  constructor(
    private readonly prefix: string,
    private readonly after: string | undefined,
    private readonly visit: ScanVisitor,
  ) {
    this.prefixNibbles = prefix.length * 2;
    this.afterNibbles = after === undefined ? 0 : after.length * 2;
  }

  /**
   * `bounded`: the path so far equals the cursor's first `depth` nibbles, so the subtree
   * may hold keys at or below the cursor. Returns false once the visitor stopped.
   */
  walk(node: TrieNode, depth: number, bounded: boolean): boolean {
    if (node instanceof HashNode) node = node.source.load(node, this.trail, depth);
    if (node instanceof LeafNode) {
      const k = node.key;
      if (!k.startsWith(this.prefix)) return true;
      if (this.after !== undefined && k <= this.after) return true;
      return this.visit(k, node.value) !== false;
    }
    if (node instanceof ExtensionNode) return this.walkExtension(node, depth, bounded);
    return this.walkBranch(node, depth, bounded);
  }

  private walkExtension(node: ExtensionNode, depth: number, bounded: boolean): boolean {
    const path = node.path;
    const within = Math.min(path.length, this.prefixNibbles - depth);
    for (let i = 0; i < within; i++) {
      if (path.charCodeAt(i) !== nibbleAt(this.prefix, depth + i)) return true;
    }
    if (bounded) {
      for (let i = 0; i < path.length; i++) {
        if (depth + i >= this.afterNibbles) {
          bounded = false; // the cursor is a proper prefix of everything below
          break;
        }
        const p = path.charCodeAt(i);
        const a = nibbleAt(this.after!, depth + i);
        if (p < a) return true; // whole subtree sorts before the cursor
        if (p > a) {
          bounded = false;
          break;
        }
      }
    }
    this.trail.setPath(depth, path);
    return this.walk(node.child, depth + path.length, bounded);
  }

  private walkBranch(node: BranchNode, depth: number, bounded: boolean): boolean {
    if (depth < this.prefixNibbles) {
      const n = nibbleAt(this.prefix, depth);
      if (((node.mask >> n) & 1) === 0) return true;
      let childBounded = false;
      if (bounded && depth < this.afterNibbles) {
        const a = nibbleAt(this.after!, depth);
        if (n < a) return true;
        childBounded = n === a;
      }
      this.trail.set(depth, n);
      return this.walk(at(node.children, childSlot(node.mask, n)), depth + 1, childBounded);
    }
    // The branch's own key is the smallest in its subtree; under a cursor it is <= cursor.
    if (node.value !== undefined && !bounded) {
      if (this.visit(node.valueKey!, node.value) === false) return false;
    }
    const cursorNibble = bounded && depth < this.afterNibbles ? nibbleAt(this.after!, depth) : -1;
    for (let n = 0, k = 0; n < 16; n++) {
      if (((node.mask >> n) & 1) === 0) continue;
      const child = at(node.children, k++);
      if (n < cursorNibble) continue;
      this.trail.set(depth, n);
      if (!this.walk(child, depth + 1, n === cursorNibble)) return false;
    }
    return true;
  }
}
