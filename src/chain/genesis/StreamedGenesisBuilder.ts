import { join } from "node:path";
import type { BulkTrieLoad } from "../store/BulkTrieLoad.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import { readEntryRecords } from "./entryRecords.js";
import { GenesisError } from "./GenesisError.js";
import type { GenesisLoadProgress } from "./loadGenesisFile.js";
import { GenesisStateBuilder, type AccountAggregate, type GenesisState } from "./GenesisStateBuilder.js";
import { WorkerEntrySorter } from "./WorkerEntrySorter.js";
import { int32At } from "../must.js";

/** Entries merged between two turns of the event loop (a progress line redraws in between). */
const YIELD_EVERY = 500_000;
/** Account entries pushed between two waits for the sort worker to catch up. */
const ACCOUNTS_PER_WAIT = 10_000;

/**
 * {@link GenesisStateBuilder} for genesis files of any size: entries go to an external sort
 * (EntrySorter: sorted runs in scratch files, merged) instead of the heap, and the merged
 * stream feeds a bulk trie load into the on-disk store. Memory holds one account aggregate per
 * account, one sort run and the open branches of the tries, not the state. The sort runs on a
 * worker thread (WorkerEntrySorter): it sorts while this thread parses, and merges while this
 * thread builds the tries.
 */
export class StreamedGenesisBuilder extends GenesisStateBuilder {
  private readonly sorter: WorkerEntrySorter;

  constructor(
    private readonly bulk: BulkTrieLoad,
    options: { readonly runBytes?: number } = {},
  ) {
    super();
    this.sorter = new WorkerEntrySorter(join(bulk.scratchDir, "entries"), options.runBytes);
  }

  protected override push(key: string, value: string, owner: AccountAggregate, index: number): void {
    this.sorter.add(key, value, index, owner.ordinal);
  }

  /** Sorts, builds and writes the tries; the state's entries stay empty (the roots name the tries). */
  async load(layout: ShardLayout, onProgress?: (progress: GenesisLoadProgress) => void): Promise<{ state: GenesisState; roots: Uint8Array[] }> {
    try {
      // The account entries go to the sort too, waiting for it like the records (millions of accounts are millions of entries).
      const accounts = this.pushAccounts();
      let step = accounts.next();
      for (let n = 1; step.done !== true; n++, step = accounts.next()) if (n % ACCOUNTS_PER_WAIT === 0) await this.sorter.ready();
      const totalSupply = step.value;
      const shardOf = Int32Array.from(this.ordered, (a) => layout.shardIndexOf(a.id));
      let previousKey: string | undefined;
      let previousRecord = 0;
      let merged = 0;
      let sinceYield = 0;
      const totalEntries = this.sorter.count;
      onProgress?.({ phase: "tries", entries: 0, totalEntries });
      for await (const batch of this.sorter.sortedBatches()) {
        readEntryRecords(batch, (key, value, record, owner) => {
          if (key === previousKey) {
            const [first, second] = previousRecord < record ? [previousRecord, record] : [record, previousRecord];
            throw new GenesisError(`writes the same state key as record #${first}`, second);
          }
          this.bulk.add(int32At(shardOf, owner), key, value);
          previousKey = key;
          previousRecord = record;
          merged++;
          sinceYield++;
        });
        if (sinceYield >= YIELD_EVERY) {
          sinceYield = 0;
          onProgress?.({ phase: "tries", entries: merged, totalEntries });
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
      onProgress?.({ phase: "tries", entries: merged, totalEntries });
      await this.sorter.close(); // its memory (a whole run when nothing was spilled) is not needed for the writes
      const roots = await this.bulk.finish(layout.numShards, (p) => onProgress?.({ phase: "nodes", buckets: p.buckets, nodes: p.nodes }));
      const state: GenesisState = {
        shards: layout.shardIds.map(() => ({ keys: [], values: [] })),
        totalSupply,
        accountCount: this.accountCount,
        recordCount: this.records,
      };
      return { state, roots };
    } finally {
      await this.sorter.close();
    }
  }

  /** Resolves when the sort has caught up with the entries added (back-pressure between file chunks). */
  ready(): Promise<void> {
    return this.sorter.ready();
  }

  /** Drops the scratch files of a load that failed. */
  async abort(): Promise<void> {
    await this.sorter.close();
    this.bulk.abort();
  }
}
