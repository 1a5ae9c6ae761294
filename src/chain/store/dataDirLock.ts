import { linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChainStoreError } from "./ChainStore.js";
import { errorCode, errorMessage } from "@shardkit/primitives/errorMessage";

/** Name of the lock file a writer keeps in its data dir. */
export const LOCK_FILE = "shardkit.lock";

/**
 * A process's state letter and start time (clock ticks after boot) from /proc/PID/stat, or
 * undefined where there is no /proc (or no such process). The command name in parentheses may
 * hold spaces and parentheses itself, so fields are counted from its last ")".
 */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19]; // field 22 of the whole line
  return state === undefined || startTime === undefined ? undefined : { state, startTime };
}

/**
 * True when the writer that wrote the lock still runs: a process with this id exists (EPERM:
 * it exists but belongs to someone else), is not a zombie (killed, not yet reaped: it holds
 * nothing), and started when the writer did (so a pid reused by an unrelated process after
 * the writer died does not keep the data dir locked). Start times are compared where /proc
 * has them.
 */
function alive(pid: number, startTime: string | undefined): boolean {
  const stat = procStat(pid);
  if (stat !== undefined && (stat.state === "Z" || stat.state === "X")) return false;
  if (stat !== undefined && startTime !== undefined && stat.startTime !== startTime) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errorCode(e) === "EPERM";
  }
}

/**
 * One writer per data dir: an exclusively created lock file holding the writer's pid and its
 * start time (`PID START`, START from /proc, absent without it). A lock whose writer no longer
 * runs (killed; a zombie; its pid reused by another process) is stale and taken over. Readers (`state
 * dump`) take no lock: LMDB readers see the last committed transaction while a writer runs.
 * Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written aside and linked into place: the lock file never exists without its pid.
    const mine = join(dir, `${LOCK_FILE}.${process.pid}`);
    try {
      const started = procStat(process.pid)?.startTime;
      writeFileSync(mine, started === undefined ? `${process.pid}\n` : `${process.pid} ${started}\n`);
      try {
        linkSync(mine, path);
      } finally {
        unlinkSync(mine);
      }
    } catch (e) {
      if (errorCode(e) !== "EEXIST") {
        throw new ChainStoreError(`cannot lock data dir ${dir}: ${errorMessage(e)}`, { cause: e });
      }
      let holder: number;
      let holderStart: string | undefined;
      try {
        const [pid, start] = readFileSync(path, "utf8").trim().split(" ");
        holder = Number.parseInt(pid ?? "", 10);
        holderStart = start;
      } catch {
        continue; // removed between our open and read: try again
      }
      if (Number.isSafeInteger(holder) && holder > 0 && alive(holder, holderStart)) {
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
