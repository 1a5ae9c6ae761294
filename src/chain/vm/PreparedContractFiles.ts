import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { CachedContract } from "./ContractCache.js";
import { PREPARATION_FINGERPRINT } from "./wasm/preparationFingerprint.js";
import type { PreparedContract, PrepareErrorJson, PrepareOptions } from "./wasm/prepareContract.js";
import type { WasmLimits } from "./wasm/wasmLimits.js";

/** A directory of another build that no file was written to for this long is removed when a new one starts. */
const STALE_AFTER_MS = 30 * 24 * 3600 * 1000;
/** Default budget of one build's directory (a prepared contract is about its code's size: some 2,000 large contracts). */
export const DEFAULT_PREPARED_BUDGET_BYTES = 1024 * 1024 * 1024;
/** A file starts with the sha256 of the rest: a flipped bit would otherwise run a different binary or meter. */
const DIGEST_BYTES = 32;

/** A cache file's bytes: the digest of the V8-serialised entry, then the entry. */
export function preparedFileBytes(stored: unknown): Buffer {
  const payload = serialize(stored);
  return Buffer.concat([createHash("sha256").update(payload).digest(), payload]);
}

/** The entry a file holds (checked by its caller), or an error if its digest does not match. */
function readPreparedFile(bytes: Buffer): StoredContract {
  const payload = bytes.subarray(DIGEST_BYTES);
  if (bytes.length < DIGEST_BYTES || !createHash("sha256").update(payload).digest().equals(bytes.subarray(0, DIGEST_BYTES))) {
    throw new Error("the file's digest does not match its contents");
  }
  return deserialize(payload);
}

/** What a file holds: the cache entry without the compiled module (V8 cannot serialise a WebAssembly.Module to disk). */
interface StoredContract {
  readonly codeLength: number;
  readonly result: { readonly ok: false; readonly error: PrepareErrorJson } | { readonly ok: true; readonly contract: Omit<PreparedContract, "module"> };
}

/**
 * Prepared contracts on disk, shared by every shardkit process that is given the same
 * directory (the CLI gives all of one user's the same: sandboxes of a near-workspaces run
 * deploy the same wasm again and again, and a restarted chain calls the contracts it called
 * before). Preparing a 200 KB contract takes 200-500 ms; reading it back and compiling the
 * prepared binary takes ~10.
 *
 * Files are named by the sha256 of the deployed code (never by an account's `code_hash`,
 * which a patched record may set to anything) under a directory named by everything else the
 * result depends on: the preparation code (PREPARATION_FINGERPRINT), the limits, the options
 * and the V8 version (the file is V8-serialised). A file is written beside its final name and
 * renamed into place, so concurrent writers and a kill leave whole files or none; one that
 * does not read back or whose sha256 header does not match (disk damage, a foreign file) is
 * removed and prepared again. A directory is kept under a byte budget: a save that takes it
 * over removes the least recently used files (a load marks its file used) down to 3/4 of it.
 * Each build of shardkit starts a directory of its own; starting one removes those of other
 * builds left unwritten for 30 days.
 */
export class PreparedContractFiles {
  private dirNow: string | undefined;

  constructor(
    private readonly root: string,
    private readonly limits: WasmLimits,
    private readonly options: PrepareOptions,
    private readonly budgetBytes = DEFAULT_PREPARED_BUDGET_BYTES,
  ) {}

  /** The cached preparation of `code`, or undefined. */
  load(code: Uint8Array): CachedContract | undefined {
    const path = this.pathOf(code);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return undefined;
    }
    try {
      const stored = readPreparedFile(bytes);
      if (stored.codeLength !== code.length) throw new Error("another code's file");
      markUsed(path);
      const { result } = stored;
      if (!result.ok) return { codeLength: stored.codeLength, result };
      return { codeLength: stored.codeLength, result: { ok: true, contract: { ...result.contract, module: new WebAssembly.Module(result.contract.code) } } };
    } catch {
      removeQuietly(path);
      return undefined;
    }
  }

  /** Files `entry` as the preparation of `code` (a failure to write only costs the next process a preparation). */
  save(code: Uint8Array, entry: CachedContract): void {
    const path = this.pathOf(code);
    const { result } = entry;
    let stored: StoredContract = { codeLength: entry.codeLength, result };
    if (result.ok) {
      const { module: _compiled, ...contract } = result.contract;
      stored = { codeLength: entry.codeLength, result: { ok: true, contract } };
    }
    const partial = `${path}.${randomBytes(6).toString("hex")}.partial`;
    try {
      if (mkdirSync(this.dir(), { recursive: true }) !== undefined) this.pruneOtherGenerations();
      writeFileSync(partial, preparedFileBytes(stored));
      renameSync(partial, path);
    } catch {
      removeQuietly(partial);
      return;
    }
    this.keepWithinBudget();
  }

  /** Over budget: removes the least recently used files until the directory holds 3/4 of it. */
  private keepWithinBudget(): void {
    const files: { path: string; bytes: number; usedMs: number }[] = [];
    let total = 0;
    for (const name of readdirSync(this.dir())) {
      const path = join(this.dir(), name);
      try {
        const stat = statSync(path);
        files.push({ path, bytes: stat.size, usedMs: stat.mtimeMs });
        total += stat.size;
      } catch {
        // removed by another process meanwhile
      }
    }
    if (total <= this.budgetBytes) return;
    files.sort((a, b) => a.usedMs - b.usedMs);
    for (const file of files) {
      if (total <= (this.budgetBytes * 3) / 4) break;
      removeQuietly(file.path);
      total -= file.bytes;
    }
  }

  /** Removes the directories of other shardkit builds that no file was written to for STALE_AFTER_MS (each new build starts one). */
  private pruneOtherGenerations(): void {
    const now = Date.now();
    for (const name of readdirSync(this.root)) {
      const dir = join(this.root, name);
      if (dir === this.dir()) continue;
      try {
        if (now - statSync(dir).mtimeMs > STALE_AFTER_MS) rmSync(dir, { recursive: true, force: true });
      } catch {
        // another process pruned it first, or it is not ours to remove
      }
    }
  }

  private pathOf(code: Uint8Array): string {
    return join(this.dir(), `${createHash("sha256").update(code).digest("hex")}.prepared`);
  }

  private dir(): string {
    if (this.dirNow !== undefined) return this.dirNow;
    const generation = createHash("sha256")
      .update(JSON.stringify({ code: PREPARATION_FINGERPRINT, v8: process.versions.v8, limits: this.limits, options: this.options }))
      .digest("hex")
      .slice(0, 32);
    return (this.dirNow = join(this.root, generation));
  }
}

/** Marks a file used now (its mtime), for the budget's least-recently-used order; a read-only directory leaves it as it is. */
function markUsed(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // nothing to do
  }
}

/** A cache file that cannot be removed either (a read-only directory) is left as it is. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing to do
  }
}
