import { join } from "node:path";
import type { BulkTrieLoad } from "../store/BulkTrieLoad.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import { EntrySorter, type SortedEntry } from "./EntrySorter.js";
import { GenesisError } from "./GenesisError.js";
import { GenesisStateBuilder, type AccountAggregate, type GenesisState } from "./GenesisStateBuilder.js";

/** Entries merged between two turns of the event loop (a progress line redraws in between). */
const YIELD_EVERY = 500_000;

/**
 * {@link GenesisStateBuilder} for genesis files of any size: entries go to an external sort
 * (EntrySorter: sorted runs in scratch files, merged) instead of the heap, and the merged
 * stream feeds a bulk trie load into the on-disk store. Memory holds one account aggregate per
 * account, one sort run and the open branches of the tries, not the state.
 */
export class StreamedGenesisBuilder extends GenesisStateBuilder {
  private readonly sorter: EntrySorter;

  constructor(
    private readonly bulk: BulkTrieLoad,
    options: { readonly runBytes?: number } = {},
  ) {
    super();
    this.sorter = new EntrySorter(join(bulk.scratchDir, "entries"), options.runBytes);
  }

  protected override push(key: string, value: string, owner: AccountAggregate, index: number): void {
    this.sorter.add(key, value, index, owner.ordinal);
  }

  /** Sorts, builds and writes the tries; the state's entries stay empty (the roots name the tries). */
  async load(layout: ShardLayout): Promise<{ state: GenesisState; roots: Uint8Array[] }> {
    try {
      const totalSupply = this.finishAccounts();
      const shardOf = Int32Array.from(this.ordered, (a) => layout.shardIndexOf(a.id));
      let previous: SortedEntry | undefined;
      let merged = 0;
      for (const entry of this.sorter.sorted()) {
        if (previous !== undefined && previous.key === entry.key) {
          const [first, second] = previous.record < entry.record ? [previous.record, entry.record] : [entry.record, previous.record];
          throw new GenesisError(`writes the same state key as record #${first}`, second);
        }
        this.bulk.add(shardOf[entry.owner]!, entry.key, entry.value);
        previous = entry;
        if (++merged % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const roots = await this.bulk.finish(layout.numShards);
      const state: GenesisState = {
        shards: layout.shardIds.map(() => ({ keys: [], values: [] })),
        totalSupply,
        accountCount: this.accountCount,
        recordCount: this.records,
      };
      return { state, roots };
    } finally {
      this.sorter.dispose();
    }
  }

  /** Drops the scratch files of a load that failed. */
  abort(): void {
    this.sorter.dispose();
    this.bulk.abort();
  }
}
