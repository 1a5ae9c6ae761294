import { linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChainStoreError } from "./ChainStore.js";

/** Name of the lock file a writer keeps in its data dir. */
export const LOCK_FILE = "shardkit.lock";

/** True when a process with this id exists (EPERM: it exists but belongs to someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One writer per data dir: an exclusively created lock file holding the writer's pid. A lock
 * whose pid no longer runs (the writer was killed) is stale and taken over. Readers (`state
 * dump`) take no lock: LMDB readers see the last committed transaction while a writer runs.
 * Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written aside and linked into place: the lock file never exists without its pid.
    const mine = join(dir, `${LOCK_FILE}.${process.pid}`);
    try {
      writeFileSync(mine, `${process.pid}\n`);
      try {
        linkSync(mine, path);
      } finally {
        unlinkSync(mine);
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new ChainStoreError(`cannot lock data dir ${dir}: ${(e as Error).message}`);
      }
      let holder: number;
      try {
        holder = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
      } catch {
        continue; // removed between our open and read: try again
      }
      if (Number.isSafeInteger(holder) && holder > 0 && alive(holder)) {
        throw new ChainStoreError(
          `data dir ${dir} is in use by process ${holder} (another shardkit serve); stop it or use another --data-dir`,
        );
      }
      // Stale: its writer is gone (or the file holds no pid).
      try {
        unlinkSync(path);
      } catch {
        // someone else took it over first; the next attempt sees their pid
      }
      continue;
    }
    return () => {
      try {
        if (Number.parseInt(readFileSync(path, "utf8"), 10) === process.pid) unlinkSync(path);
      } catch {
        // already gone
      }
    };
  }
  throw new ChainStoreError(`cannot lock data dir ${dir}: the lock file keeps changing`);
}
