import { deserialize, serialize } from "node:v8";
import type { Database } from "lmdb";
import { sha256 } from "../primitives/sha256.js";
import type { ForkCache, ForkEntry } from "./ForkCache.js";

/** LMDB's key size limit is 1,978 bytes; longer keys (contract data keys reach 2 KiB) are hashed. */
const MAX_RAW_KEY = 1_900;
const VALUE = 0x76; // "v"
const LISTING = 0x6c; // "l"
const HASHED = 0x68; // "h"
const ABSENT = Buffer.from([0]);
/** Listings decoded and kept in the heap (each can be a whole contract's state). */
const LISTINGS_KEPT = 8;

/**
 * {@link ForkCache} in a named database of the data dir's LMDB environment, keyed by the fork
 * block's hash (so a fork at another block never reads these entries). Writes are synchronous
 * (each follows an upstream round trip, which dwarfs it) so a read right after sees them.
 */
export class LmdbForkCache implements ForkCache {
  private readonly prefix: Buffer;
  private readonly listings = new Map<string, readonly ForkEntry[]>();

  constructor(
    private readonly db: Database<Buffer, Buffer>,
    forkBlockHash: Uint8Array,
  ) {
    this.prefix = Buffer.from(forkBlockHash);
  }

  private key(kind: number, key: string): Buffer {
    const raw = Buffer.from(key, "latin1");
    if (raw.length <= MAX_RAW_KEY) return Buffer.concat([this.prefix, Buffer.from([kind]), raw]);
    return Buffer.concat([this.prefix, Buffer.from([kind, HASHED]), sha256(raw)]);
  }

  get(key: string): string | null | undefined {
    const stored = this.db.getBinary(this.key(VALUE, key));
    if (stored === undefined) return undefined;
    return stored[0] === 0 ? null : stored.toString("latin1", 1);
  }

  put(key: string, value: string | null): void {
    this.db.putSync(this.key(VALUE, key), value === null ? ABSENT : Buffer.concat([Buffer.from([1]), Buffer.from(value, "latin1")]));
  }

  listing(prefix: string): readonly ForkEntry[] | undefined {
    const kept = this.listings.get(prefix);
    if (kept !== undefined) return kept;
    const stored = this.db.getBinary(this.key(LISTING, prefix));
    if (stored === undefined) return undefined;
    const [keys, values] = deserialize(stored) as [string[], string[]];
    const entries = keys.map((k, i): ForkEntry => [k, values[i]!]);
    this.keep(prefix, entries);
    return entries;
  }

  putListing(prefix: string, entries: readonly ForkEntry[]): void {
    this.db.putSync(this.key(LISTING, prefix), serialize([entries.map((e) => e[0]), entries.map((e) => e[1])]));
    this.keep(prefix, entries);
  }

  private keep(prefix: string, entries: readonly ForkEntry[]): void {
    if (this.listings.size >= LISTINGS_KEPT) this.listings.delete(this.listings.keys().next().value!);
    this.listings.set(prefix, entries);
  }
}
