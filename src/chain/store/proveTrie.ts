import { encodeNode } from "./nodeEncoding.js";
import { childSlot, nibbleAt } from "./nibbles.js";
import { BranchNode, ExtensionNode, LeafNode, type TrieNode } from "./trieNode.js";

/**
 * Builds the completeness proof for every key under `prefix`: the encodings of the nodes on
 * the path from the root towards the prefix, followed by every node of the subtree under
 * it, all in pre-order (parent first, children in nibble order). The order is part of the
 * format: the verifier consumes nodes in sequence and checks each against the hash its
 * parent committed to. An empty trie yields an empty proof.
 */
export function proveTrie(root: TrieNode | null, prefix: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  if (root !== null) collect(root, 0, prefix, prefix.length * 2, out);
  return out;
}

function collect(node: TrieNode, depth: number, prefix: string, prefixNibbles: number, out: Uint8Array[]): void {
  out.push(encodeNode(node));
  if (node instanceof LeafNode) return;
  if (node instanceof ExtensionNode) {
    const within = Math.min(node.path.length, prefixNibbles - depth);
    for (let i = 0; i < within; i++) {
      // The path leaves the prefix: this node alone proves nothing lies under it.
      if (node.path.charCodeAt(i) !== nibbleAt(prefix, depth + i)) return;
    }
    collect(node.child, depth + node.path.length, prefix, prefixNibbles, out);
    return;
  }
  collectBranch(node, depth, prefix, prefixNibbles, out);
}

function collectBranch(node: BranchNode, depth: number, prefix: string, prefixNibbles: number, out: Uint8Array[]): void {
  if (depth < prefixNibbles) {
    const n = nibbleAt(prefix, depth);
    if (((node.mask >> n) & 1) === 0) return; // absent child: proven empty
    collect(node.children[childSlot(node.mask, n)]!, depth + 1, prefix, prefixNibbles, out);
    return;
  }
  for (const child of node.children) collect(child, depth + 1, prefix, prefixNibbles, out);
}
