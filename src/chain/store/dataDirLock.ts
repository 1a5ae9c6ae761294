import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";
import { ChainStoreError } from "./ChainStore.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

/** The writer lock's LMDB environment inside a data dir. */
export const WRITER_LOCK_DIR = "writer-lock";
/** The writer's record in it (JSON, readable with `cat`). */
export const WRITER_RECORD = "writer.json";
/** The pid file older shardkit versions locked with (removed when found: its writer is judged by the new lock). */
const LEGACY_LOCK_FILE = "shardkit.lock";

/** What the writer records about itself, for the error a second writer gets. */
export interface LockHolder {
  readonly token: string;
  readonly pid: number;
  readonly host: string;
  readonly since: string;
  readonly command: string;
}

/** Data dirs (real paths) this process holds: a second open here is refused too. */
const heldHere = new Map<string, LockHolder>();

/** Pids of the live reader slots LMDB lists (`readerList`: a header line, then `pid thread txnid` per slot). */
function readerPids(env: RootDatabase): number[] {
  return env
    .readerList()
    .split("\n")
    .slice(1)
    .map((line) => Number.parseInt(line.trim().split(/\s+/)[0] ?? "", 10))
    .filter((pid) => Number.isSafeInteger(pid) && pid > 0);
}

function isHolder(value: unknown): value is LockHolder {
  if (typeof value !== "object" || value === null) return false;
  const v: Partial<Record<keyof LockHolder, unknown>> = value;
  return typeof v.token === "string" && typeof v.pid === "number" && typeof v.host === "string" && typeof v.since === "string" && typeof v.command === "string";
}

function inUse(dir: string, holder: LockHolder): ChainStoreError {
  const where = holder.host === hostname() ? "" : ` on ${holder.host}`;
  return new ChainStoreError(
    `data dir ${dir} is in use by process ${holder.pid}${where} (${holder.command}, since ${holder.since}); stop it or use another --data-dir`,
  );
}

/** The record a writer left (undefined when none, or unreadable: a torn or foreign file holds nothing). */
function readRecord(path: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return isHolder(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One writer per data dir, held the way databases hold it: by a lock the kernel drops when the
 * writer's process ends, however it ends (SIGKILL, a zombie its parent has not reaped yet, a
 * pid reused since). The lock is a small LMDB environment (`writer-lock/`) that the writer
 * keeps a read transaction open on: LMDB marks each reader's process live with an fcntl lock
 * on its `lock.mdb`, and `readerCheck` clears the slots of processes that no longer hold one.
 * The writer's record (`writer.json`: pid, host, command, start) is checked and replaced under
 * LMDB's write mutex, which serialises claims across processes: of two writers starting at
 * once, the second sees the first's record and its live reader, and is refused with what
 * holds the dir. A record whose writer has no live reader left is stale and taken over, as is
 * one naming our own pid (a container's pid 1 restarted). Readers (`state dump`) take no lock:
 * LMDB readers see the last committed transaction while a writer runs. Returns the release
 * function.
 *
 * Limit: two writers in different pid namespaces (containers sharing a volume) whose pids are
 * equal look like one process to LMDB's reader table, so the second is not refused.
 */
export function lockDataDir(dir: string): () => void {
  let key: string;
  try {
    key = realpathSync(dir);
  } catch (e) {
    throw new ChainStoreError(`cannot lock data dir ${dir}: ${errorMessage(e)}`, { cause: e });
  }
  const held = heldHere.get(key);
  if (held !== undefined) throw inUse(dir, held);
  const mine: LockHolder = {
    token: randomUUID(),
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    command: `shardkit ${process.argv.slice(2).join(" ")}`.trim(),
  };
  const lockDir = join(dir, WRITER_LOCK_DIR);
  const record = join(lockDir, WRITER_RECORD);

  let env: RootDatabase;
  try {
    // noSubdir: false, whatever the name looks like (lmdb-js takes a path with a dot for a file).
    env = open({ path: lockDir, noSubdir: false, compression: false });
  } catch (e) {
    throw new ChainStoreError(`cannot lock data dir ${dir}: ${errorMessage(e)}`, { cause: e });
  }
  let reading: { done(): void } | undefined;
  try {
    // Our reader slot first: a writer starting beside us sees it when it reads our record.
    reading = env.useReadTransaction();
    env.readerCheck();
    // An empty write transaction: LMDB's writer mutex (robust: freed if its holder dies), nothing written.
    const holder = env.transactionSync(() => {
      const recorded = readRecord(record);
      if (recorded !== undefined && recorded.pid !== process.pid && readerPids(env).includes(recorded.pid)) return recorded;
      const aside = `${record}.${process.pid}`;
      try {
        writeFileSync(aside, `${JSON.stringify(mine)}\n`);
        renameSync(aside, record);
      } catch (e) {
        rmSync(aside, { force: true });
        throw e;
      }
      return undefined;
    });
    if (holder !== undefined) throw inUse(dir, holder);
    rmSync(join(dir, LEGACY_LOCK_FILE), { force: true });
  } catch (e) {
    reading?.done();
    void env.close();
    if (e instanceof ChainStoreError) throw e;
    throw new ChainStoreError(`cannot lock data dir ${dir}: ${errorMessage(e)}`, { cause: e });
  }
  heldHere.set(key, mine);
  return () => {
    heldHere.delete(key);
    try {
      env.transactionSync(() => {
        if (readRecord(record)?.token === mine.token) rmSync(record);
      });
    } catch {
      // A record left behind is harmless: no live reader vouches for it.
    }
    reading?.done();
    void env.close();
  };
}
