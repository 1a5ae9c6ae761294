import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Debian's PostgreSQL 15 binaries (`.ci/run` installs postgresql-15 when missing). */
const BIN = process.env.SHARDKIT_PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust auth, no password). */
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server, keeping its data: fast shutdown (sessions are cut), or `immediate` (no
   * shutdown checkpoint, as a crash: `pg_ctl -m immediate`).
   */
  stop(options?: { immediate?: boolean }): void;
  /** Starts it again on the same port and data directory. */
  start(): void;
  /** Stops and starts it: every open session dies, as in a crash-restart of the database. */
  restart(): void;
  /**
   * Stops it once its sessions are gone (smart shutdown, falling back to fast after 10 s) and
   * removes its directory. pg-pool's `end()` resolves before the connections it closes are
   * closed: a fast shutdown could still cut them, and a cut connection's error event has no
   * listener left (an uncaught exception in the test file).
   */
  destroy(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Runs a command as the `postgres` user when we are root (initdb and postgres refuse root). */
function run(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } })
    : spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}${result.error ?? ""}`);
  }
}

/**
 * A throwaway PostgreSQL 15 in a temp dir (trust auth, fsync off: test data only), on a free
 * port of 127.0.0.1. Fails with a clear message when the binaries are missing.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const initdb = join(BIN, "initdb");
  const pgCtl = join(BIN, "pg_ctl");
  if (!existsSync(initdb) || !existsSync(pgCtl)) {
    throw new Error(
      `PostgreSQL 15 binaries not found in ${BIN} (install Debian's postgresql-15, as .ci/run does, or set SHARDKIT_PG_BIN)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "shardkit-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  run(initdb, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale", "C"]);
  const port = await freePort();
  const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  let running = false;
  const server: PostgresServer = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      if (running) return;
      run(pgCtl, ["-D", data, "-l", log, "-w", "-t", "30", "-o", options, "start"]);
      running = true;
    },
    stop(options = {}) {
      if (!running) return;
      run(pgCtl, ["-D", data, "-m", options.immediate === true ? "immediate" : "fast", "-w", "-t", "30", "stop"]);
      running = false;
    },
    restart() {
      server.stop();
      server.start();
    },
    destroy() {
      try {
        if (running) {
          try {
            run(pgCtl, ["-D", data, "-m", "smart", "-w", "-t", "10", "stop"]);
            running = false;
          } catch {
            server.stop();
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  server.start();
  return server;
}

function postgresUser(): { uid: number; gid: number } {
  const result = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const groups = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (result.status !== 0 || groups.status !== 0) throw new Error("running as root needs a `postgres` user (Debian's postgresql-15 creates it)");
  return { uid: Number(result.stdout.trim()), gid: Number(groups.stdout.trim()) };
}
