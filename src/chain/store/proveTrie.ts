import { encodeNode } from "./nodeEncoding.js";
import { NibbleTrail } from "./nibbleTrail.js";
import { childSlot, nibbleAt } from "./nibbles.js";
import { BranchNode, ExtensionNode, HashNode, LeafNode, type TrieNode } from "./trieNode.js";
import { at } from "../must.js";

/**
 * Builds the completeness proof for every key under `prefix`: the encodings of the nodes on
 * the path from the root towards the prefix, followed by every node of the subtree under
 * it, all in pre-order (parent first, children in nibble order). The order is part of the
 * format: the verifier consumes nodes in sequence and checks each against the hash its
 * parent committed to. An empty trie yields an empty proof.
 */
export function proveTrie(root: TrieNode | null, prefix: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  if (root !== null) new Prover(prefix, out).collect(root, 0);
  return out;
}

class Prover {
  private readonly prefixNibbles: number;
  /** Nibbles walked so far (on-disk references load with their position). */
  private readonly trail = new NibbleTrail();

  constructor(
    private readonly prefix: string,
    private readonly out: Uint8Array[],
  ) {
    this.prefixNibbles = prefix.length * 2;
  }

  collect(ref: TrieNode, depth: number): void {
    const node = ref instanceof HashNode ? ref.source.load(ref, this.trail, depth) : ref;
    this.out.push(encodeNode(node));
    if (node instanceof LeafNode) return;
    if (node instanceof ExtensionNode) {
      const within = Math.min(node.path.length, this.prefixNibbles - depth);
      for (let i = 0; i < within; i++) {
        // The path leaves the prefix: this node alone proves nothing lies under it.
        if (node.path.charCodeAt(i) !== nibbleAt(this.prefix, depth + i)) return;
      }
      this.trail.setPath(depth, node.path);
      this.collect(node.child, depth + node.path.length);
      return;
    }
    this.collectBranch(node, depth);
  }

  private collectBranch(node: BranchNode, depth: number): void {
    if (depth < this.prefixNibbles) {
      const n = nibbleAt(this.prefix, depth);
      if (((node.mask >> n) & 1) === 0) return; // absent child: proven empty
      this.trail.set(depth, n);
      this.collect(at(node.children, childSlot(node.mask, n)), depth + 1);
      return;
    }
    for (let n = 0, k = 0; n < 16; n++) {
      if (((node.mask >> n) & 1) === 0) continue;
      this.trail.set(depth, n);
      this.collect(at(node.children, k++), depth + 1);
    }
  }
}
