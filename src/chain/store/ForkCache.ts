/** One upstream entry: trie key and value, latin1. */
export type ForkEntry = readonly [key: string, value: string];

/**
 * What a fork has already fetched from its upstream at the fork block, so no item is asked
 * twice (across restarts too, in a data dir). Values are the trie's: latin1 byte strings.
 */
export interface ForkCache {
  /** A fetched value; `null` when the upstream had none (absence is cached too); undefined when never asked. */
  get(key: string): string | null | undefined;
  put(key: string, value: string | null): void;
  /** Every upstream entry under `prefix` (one account's contract data or access keys), sorted by key, when fetched. */
  listing(prefix: string): readonly ForkEntry[] | undefined;
  putListing(prefix: string, entries: readonly ForkEntry[]): void;
}

/** {@link ForkCache} in the heap (an `--ephemeral` fork). */
export class MemoryForkCache implements ForkCache {
  private readonly values = new Map<string, string | null>();
  private readonly listings = new Map<string, readonly ForkEntry[]>();

  get(key: string): string | null | undefined {
    return this.values.get(key);
  }

  put(key: string, value: string | null): void {
    this.values.set(key, value);
  }

  listing(prefix: string): readonly ForkEntry[] | undefined {
    return this.listings.get(prefix);
  }

  putListing(prefix: string, entries: readonly ForkEntry[]): void {
    this.listings.set(prefix, entries);
  }
}
