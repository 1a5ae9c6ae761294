import { readFileSync, unwatchFile, watchFile, type Stats } from "node:fs";
import { KeyRing, KeysFileError, parseKeysFile } from "./keyRing.js";

/** How often the keys file's mtime/size are polled (polling survives editors that replace the file). */
export const KEYS_FILE_POLL_MS = 200;

/**
 * The keys file, reloaded whenever it changes, without a restart. A broken file (bad JSON,
 * a bad entry, missing) is reported and the last good version keeps serving; the first load
 * must succeed. Messages name the problem, never a key.
 */
export class KeysFileWatcher {
  private ring: KeyRing;
  private readonly listener: (current: Stats, previous: Stats) => void;

  private constructor(
    readonly file: string,
    private readonly onReport: (message: string) => void,
  ) {
    this.ring = new KeyRing(load(file).keys);
    this.listener = (current, previous) => {
      if (current.mtimeMs === previous.mtimeMs && current.size === previous.size && current.ino === previous.ino) return;
      this.reload();
    };
    watchFile(file, { interval: KEYS_FILE_POLL_MS, persistent: false }, this.listener);
  }

  /** Loads the file (throws a KeysFileError naming the file when it is unusable) and watches it. */
  static open(file: string, onReport: (message: string) => void = () => {}): KeysFileWatcher {
    return new KeysFileWatcher(file, onReport);
  }

  /** The keys of the last good version of the file. */
  current(): KeyRing {
    return this.ring;
  }

  /** Re-reads the file now (the watcher calls this on every change). */
  reload(): void {
    try {
      this.ring = new KeyRing(load(this.file).keys);
      this.onReport(`keys file ${this.file} reloaded: ${this.ring.keys.length} key(s)`);
    } catch (error) {
      this.onReport(`${error instanceof Error ? error.message : String(error)}; still serving the last good version`);
    }
  }

  close(): void {
    unwatchFile(this.file, this.listener);
  }
}

function load(file: string): ReturnType<typeof parseKeysFile> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "error";
    throw new KeysFileError(`cannot read keys file ${file}: ${code}`, { cause: error });
  }
  try {
    return parseKeysFile(text);
  } catch (error) {
    throw new KeysFileError(`keys file ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
