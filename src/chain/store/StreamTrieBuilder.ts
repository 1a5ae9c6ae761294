import { nibbleAt, nibblePath } from "./nibbles.js";
import { hashEncoded } from "./nodeEncoding.js";
import { BranchNode, ExtensionNode, HashNode, LeafNode, type NodeSource } from "./trieNode.js";

/** Receives each finished node once: its hash and its canonical encoding (a view to copy at once). */
export type NodeSink = (hash: string, encoding: Uint8Array) => void;

/** A branch whose children are still arriving: it sits `depth` nibbles deep. */
interface OpenBranch {
  readonly depth: number;
  mask: number;
  readonly children: HashNode[];
  value: string | undefined;
  valueKey: string | undefined;
}

/**
 * Builds the canonical trie of strictly increasing keys fed one at a time, bottom-up, in
 * memory bounded by the trie's depth (not its size): the open branches form a stack along the
 * last key's path, and a subtree is finished, hashed and handed to the sink as soon as a key
 * leaves it. The result (shape and hashes) is the same as `buildSubtrie` over all keys at once.
 *
 * The last key is held back until the next one arrives: their common prefix decides whether it
 * becomes a leaf (and at which depth) or the value of a branch (when it is a prefix of the next).
 */
export class StreamTrieBuilder {
  private readonly open: OpenBranch[] = [];
  private lastKey: string | undefined;
  private lastValue = "";
  /** Keys added so far. */
  count = 0;

  constructor(
    private readonly sink: NodeSink,
    /** Where the finished nodes can later be read (the references handed out point there). */
    private readonly source: NodeSource,
  ) {}

  add(key: string, value: string): void {
    const last = this.lastKey;
    if (last !== undefined) {
      if (!(last < key)) throw new RangeError(`keys not strictly increasing at key #${this.count}`);
      this.settle(commonNibbles(last, key));
    }
    this.lastKey = key;
    this.lastValue = value;
    this.count++;
  }

  /** Finishes every open node; returns the root hash (a 32-char latin1 string), undefined for no keys. */
  finish(): string | undefined {
    const last = this.lastKey;
    if (last === undefined) return undefined;
    const { node, depth } = this.closeBelow(-1, last);
    this.lastKey = undefined;
    if (node === undefined) return hashEncoded(new LeafNode(last, this.lastValue, 0), this.sink);
    if (depth === 0) return node.hash;
    return hashEncoded(new ExtensionNode(nibblePath(last, 0, depth), node), this.sink);
  }

  /** The next key shares `shared` nibbles with the held-back key: place the latter for good. */
  private settle(shared: number): void {
    const last = this.lastKey!;
    const { node, depth } = this.closeBelow(shared, last);
    const top = this.open[this.open.length - 1];
    if (top !== undefined && top.depth === shared) {
      this.attach(top, last, node, depth);
      return;
    }
    // The two keys diverge (or the held-back one ends) where no branch is open yet.
    const branch: OpenBranch = { depth: shared, mask: 0, children: [], value: undefined, valueKey: undefined };
    if (node === undefined && last.length * 2 === shared) {
      branch.value = this.lastValue;
      branch.valueKey = last;
    } else {
      this.attach(branch, last, node, depth);
    }
    this.open.push(branch);
  }

  /**
   * Closes the open branches deeper than `shared`, innermost first, each taking the subtree
   * finished below it; returns the outermost one closed (undefined: none was, the held-back key
   * is still unplaced) and its depth.
   */
  private closeBelow(shared: number, last: string): { node: HashNode | undefined; depth: number } {
    let node: HashNode | undefined;
    let depth = -1;
    for (let top = this.open[this.open.length - 1]; top !== undefined && top.depth > shared; top = this.open[this.open.length - 1]) {
      this.open.pop();
      this.attach(top, last, node, depth);
      node = this.emit(new BranchNode(top.mask, top.children, top.value, top.valueKey));
      depth = top.depth;
    }
    return { node, depth };
  }

  /** Puts the held-back key's leaf (node undefined) or a finished subtree at `depth` under `branch`. */
  private attach(branch: OpenBranch, last: string, node: HashNode | undefined, depth: number): void {
    const at = branch.depth + 1;
    let child: HashNode;
    if (node === undefined) child = this.emit(new LeafNode(last, this.lastValue, at));
    else if (depth === at) child = node;
    else child = this.emit(new ExtensionNode(nibblePath(last, at, depth), node));
    branch.mask |= 1 << nibbleAt(last, branch.depth);
    branch.children.push(child);
  }

  private emit(node: LeafNode | ExtensionNode | BranchNode): HashNode {
    return new HashNode(hashEncoded(node, this.sink), this.source);
  }
}

/** Number of leading nibbles two latin1 keys share. */
export function commonNibbles(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return 2 * i;
  return (a.charCodeAt(i) >> 4) === (b.charCodeAt(i) >> 4) ? 2 * i + 1 : 2 * i;
}

