import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";

/** Present while a process has the index open: the boot it was opened in. */
const OPEN_MARKER = "open-in-boot";

/**
 * The LMDB environment of an index derived from the chain's blocks, in `dir`. Its commits are
 * not flushed (`noSync`: 0.1 ms a block instead of 6), which LMDB makes safe against a process
 * crash but not a system crash; an index is cheap to derive again, so an environment an earlier
 * boot left open (a system crash may have torn its pages) is thrown away here and starts empty.
 * `close` flushes and closes it, then removes the mark.
 */
export function openDerivedIndexEnv(dir: string, maxDbs: number): { env: RootDatabase; close(): Promise<void> } {
  mkdirSync(dir, { recursive: true });
  const boot = bootId();
  const marker = join(dir, OPEN_MARKER);
  const openedIn = readFileSync(marker, { encoding: "utf8", flag: "a+" }).trim();
  // Without a boot id (no /proc) a mark left behind cannot be told from a system crash's.
  if (openedIn !== "" && (openedIn !== boot || boot === UNKNOWN_BOOT)) for (const name of ["data.mdb", "lock.mdb"]) rmSync(join(dir, name), { force: true });
  const fd = openSync(marker, "w");
  try {
    writeSync(fd, `${boot}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const env = open({ path: dir, noSubdir: false, maxDbs, compression: false, noSync: true });
  return {
    env,
    close: async () => {
      await env.close();
      // noSync: closing does not flush; the mark may go only once the pages are on disk.
      const data = openSync(join(dir, "data.mdb"), "r");
      try {
        fsyncSync(data);
      } finally {
        closeSync(data);
      }
      rmSync(marker, { force: true });
    },
  };
}

const UNKNOWN_BOOT = "unknown";

function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return UNKNOWN_BOOT;
  }
}
