import { deserialize, serialize } from "node:v8";
import type { Database } from "lmdb";
import { sha256 } from "../primitives/sha256.js";
import type { ForkCache, ForkEntry, ForkRun } from "./ForkCache.js";
import { at } from "../must.js";
import { ChainStoreError } from "./ChainStore.js";

/** LMDB's key size limit is 1,978 bytes; longer keys (contract data keys reach 2 KiB) are hashed. */
const MAX_RAW_KEY = 1_900;
const VALUE = 0x76; // "v"
const RUN = 0x72; // "r"
const HASHED = 0x68; // "h"
const CODE = 0x63; // "c"
const ABSENT = Buffer.from([0]);
/** Runs decoded and kept in the heap (a page of contract state each, at most 10,000 entries). */
const RUNS_KEPT = 16;

/** A run as `putRun` stores it: its keys, its values and the key after it. */
function isStoredRun(v: unknown): v is [readonly string[], readonly string[], string | null] {
  if (!Array.isArray(v) || v.length !== 3) return false;
  const [keys, values, next] = v;
  return (
    Array.isArray(keys) &&
    keys.every((k) => typeof k === "string") &&
    Array.isArray(values) &&
    values.length === keys.length &&
    values.every((value) => typeof value === "string") &&
    (next === null || typeof next === "string")
  );
}

/**
 * {@link ForkCache} in an LMDB environment of the data dir (`fork-cache/`), keyed by the fork
 * block's hash (so a fork at another block never reads these entries). Writes are lmdb's
 * batched asynchronous puts (a synchronous one costs a flush each), kept in the heap until
 * their batch is committed so a read right after sees them; a crash loses at most the last
 * batch, which is fetched again.
 */
export class LmdbForkCache implements ForkCache {
  private readonly prefix: Buffer;
  private readonly runs = new Map<string, ForkRun>();
  /** Written but not yet committed, by LMDB key (hex). */
  private readonly pending = new Map<string, Buffer>();

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

  private read(key: Buffer): Buffer | undefined {
    return this.pending.get(key.toString("latin1")) ?? this.db.getBinary(key);
  }

  private write(key: Buffer, value: Buffer): void {
    const id = key.toString("latin1");
    this.pending.set(id, value);
    void this.db.put(key, value).then(
      () => {
        if (this.pending.get(id) === value) this.pending.delete(id);
      },
      () => undefined, // kept in the heap for this run; fetched again after a restart
    );
  }

  get(key: string): string | null | undefined {
    const stored = this.read(this.key(VALUE, key));
    if (stored === undefined) return undefined;
    return stored[0] === 0 ? null : stored.toString("latin1", 1);
  }

  put(key: string, value: string | null): void {
    this.write(this.key(VALUE, key), value === null ? ABSENT : Buffer.concat([Buffer.from([1]), Buffer.from(value, "latin1")]));
  }

  run(id: string): ForkRun | undefined {
    const kept = this.runs.get(id);
    if (kept !== undefined) return kept;
    const stored = this.read(this.key(RUN, id));
    if (stored === undefined) return undefined;
    const decoded: unknown = deserialize(stored);
    if (!isStoredRun(decoded)) throw new ChainStoreError(`fork cache: the run under ${JSON.stringify(id)} is not a well-formed run record`);
    const [keys, values, next] = decoded;
    const run: ForkRun = { entries: keys.map((k, i): ForkEntry => [k, at(values, i)]), next };
    this.keep(id, run);
    return run;
  }

  putRun(id: string, run: ForkRun): void {
    this.write(this.key(RUN, id), serialize([run.entries.map((e) => e[0]), run.entries.map((e) => e[1]), run.next]));
    this.keep(id, run);
  }

  code(hash: string): string | undefined {
    return this.read(this.key(CODE, hash))?.toString("latin1");
  }

  putCode(hash: string, code: string): void {
    this.write(this.key(CODE, hash), Buffer.from(code, "latin1"));
  }

  private keep(id: string, run: ForkRun): void {
    if (this.runs.size >= RUNS_KEPT) {
      const oldest = this.runs.keys().next();
      if (!oldest.done) this.runs.delete(oldest.value);
    }
    this.runs.set(id, run);
  }
}
