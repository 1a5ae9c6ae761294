import { bytesToLatin1 } from "../primitives/latin1.js";
import type { SortedChanges } from "./applyChanges.js";
import type { ScanVisitor } from "./scanTrie.js";
import type { StateSnapshot, StateStore } from "./stateStore.js";
import { Trie } from "./Trie.js";

/** A snapshot backed by an in-memory persistent trie. */
class TrieSnapshot implements StateSnapshot {
  readonly rootHash: Uint8Array;
  constructor(readonly trie: Trie) {
    this.rootHash = trie.rootHash();
  }
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

/** {@link StateStore} keeping every root in memory, sharing nodes between roots. */
export class MemoryStateStore implements StateStore {
  private readonly roots = new Map<string, TrieSnapshot>();

  private remember(trie: Trie): TrieSnapshot {
    const key = trie.rootHashLatin1();
    const known = this.roots.get(key);
    if (known !== undefined) return known;
    const snapshot = new TrieSnapshot(trie);
    this.roots.set(key, snapshot);
    return snapshot;
  }

  empty(): StateSnapshot {
    return this.remember(Trie.EMPTY);
  }

  build(keys: readonly string[], values: readonly string[]): StateSnapshot {
    return this.remember(Trie.fromSorted(keys, values));
  }

  commit(base: StateSnapshot, changes: SortedChanges): StateSnapshot {
    if (!(base instanceof TrieSnapshot)) throw new TypeError("snapshot belongs to another store");
    if (changes.keys.length === 0) return base;
    return this.remember(base.trie.apply(changes));
  }

  byRoot(rootHash: Uint8Array): StateSnapshot | undefined {
    return this.roots.get(bytesToLatin1(rootHash));
  }
}
