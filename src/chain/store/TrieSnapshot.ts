import type { ScanVisitor } from "./scanTrie.js";
import type { StateSnapshot } from "./stateStore.js";
import type { Trie } from "./Trie.js";

/**
 * A {@link StateSnapshot} read straight from a {@link Trie}. The memory and the disk store
 * differ in how they make, keep and hash their tries, not in how a snapshot is read, so both
 * snapshot kinds extend this. `trie` is writable: the disk store swaps a snapshot's fresh
 * nodes for a reference to its stored root once the block is durable.
 */
export abstract class TrieSnapshot implements StateSnapshot {
  abstract readonly rootHash: Uint8Array;
  constructor(public trie: Trie) {}
  get(key: string): string | undefined {
    return this.trie.get(key);
  }
  scan(prefix: string, after: string | undefined, visit: ScanVisitor): void {
    this.trie.scan(prefix, after, visit);
  }
  prove(prefix: string): Uint8Array[] {
    return this.trie.prove(prefix);
  }
}
