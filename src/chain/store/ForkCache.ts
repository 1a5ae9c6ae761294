/** One upstream entry: trie key and value, latin1. */
export type ForkEntry = readonly [key: string, value: string];

/**
 * A stretch of upstream entries in key order as one upstream read returned it (an account's
 * key list, a page of its contract data), with the cursor that continues it (`null`: nothing
 * follows).
 */
export interface ForkRun {
  readonly entries: readonly ForkEntry[];
  readonly next: string | null;
}

/**
 * What a fork has already fetched from its upstream at the fork block, so no item is asked
 * twice (across restarts too, in a data dir). Values are the trie's: latin1 byte strings.
 */
export interface ForkCache {
  /** A fetched value; `null` when the upstream had none (absence is cached too); undefined when never asked. */
  get(key: string): string | null | undefined;
  put(key: string, value: string | null): void;
  /** A fetched run, by the id its reader gave it (UpstreamState: what was asked). */
  run(id: string): ForkRun | undefined;
  putRun(id: string, run: ForkRun): void;
  /** Contract code by its sha256 (latin1): accounts that share code fetch it once. */
  code(hash: string): string | undefined;
  putCode(hash: string, code: string): void;
}

/** {@link ForkCache} in the heap (an `--ephemeral` fork). */
export class MemoryForkCache implements ForkCache {
  private readonly values = new Map<string, string | null>();
  private readonly runs = new Map<string, ForkRun>();
  private readonly codes = new Map<string, string>();

  get(key: string): string | null | undefined {
    return this.values.get(key);
  }

  put(key: string, value: string | null): void {
    this.values.set(key, value);
  }

  run(id: string): ForkRun | undefined {
    return this.runs.get(id);
  }

  putRun(id: string, run: ForkRun): void {
    this.runs.set(id, run);
  }

  code(hash: string): string | undefined {
    return this.codes.get(hash);
  }

  putCode(hash: string, code: string): void {
    this.codes.set(hash, code);
  }
}
