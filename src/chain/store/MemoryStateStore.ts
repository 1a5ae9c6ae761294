import { bytesToLatin1 } from "../primitives/latin1.js";
import type { SortedChanges } from "./applyChanges.js";
import type { StateSnapshot, StateStore } from "./stateStore.js";
import { Trie } from "./Trie.js";
import { TrieSnapshot } from "./TrieSnapshot.js";

/** A snapshot backed by an in-memory persistent trie. */
class MemorySnapshot extends TrieSnapshot {
  readonly rootHash: Uint8Array;
  constructor(trie: Trie) {
    super(trie);
    this.rootHash = trie.rootHash();
  }
}

/** {@link StateStore} keeping every root in memory, sharing nodes between roots. */
export class MemoryStateStore implements StateStore {
  private readonly roots = new Map<string, MemorySnapshot>();

  private remember(trie: Trie): MemorySnapshot {
    const key = trie.rootHashLatin1();
    const known = this.roots.get(key);
    if (known !== undefined) return known;
    const snapshot = new MemorySnapshot(trie);
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
    if (!(base instanceof MemorySnapshot)) throw new TypeError("snapshot belongs to another store");
    if (changes.keys.length === 0) return base;
    return this.remember(base.trie.apply(changes));
  }

  byRoot(rootHash: Uint8Array): StateSnapshot | undefined {
    return this.roots.get(bytesToLatin1(rootHash));
  }
}
