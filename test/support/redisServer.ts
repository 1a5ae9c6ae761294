// A throwaway redis-server for tests and benches: its own temp dir, a free TCP port on
// 127.0.0.1 (the gateway takes `--redis redis://127.0.0.1:PORT`) and a unix socket, no
// persistence unless a restart asks to keep the data. Fails loudly when redis-server is missing.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  /** `redis://127.0.0.1:PORT`, stable across restarts. */
  readonly url: string;
  readonly port: number;
  readonly socketPath: string;
  /** Stops the server. `keepData` saves a snapshot first, so restart() comes back with the same keys. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Starts it again on the same port and socket (after stop(), or stops it first). */
  restart(options?: { keepData?: boolean }): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing answers (a hung Redis). */
  pause(): void;
  /** Lets a paused server run again (SIGCONT). */
  resume(): void;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

const REDIS_SERVER = process.env.SHARDKIT_REDIS_SERVER ?? "redis-server";

/** Throws a clear error when the binary is absent (tests must not skip silently). */
export function requireRedisServer(): void {
  const probe = spawnSync(REDIS_SERVER, ["--version"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(
      `redis-server is required by the Redis gateway tests and was not found (${REDIS_SERVER}: ${probe.error?.message ?? `exit ${probe.status}`}); ` +
        "install it (apt-get install -y --no-install-recommends redis-server) or set SHARDKIT_REDIS_SERVER",
    );
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Sends one inline command over the socket and resolves with the first reply line. */
function command(socketPath: string, text: string, timeoutMs = 1000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let reply = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis ${text}: no reply within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) {
        clearTimeout(timer);
        socket.end();
        resolve(reply.split("\r\n")[0]!);
      }
    });
    socket.on("close", () => {
      clearTimeout(timer);
      // SHUTDOWN closes the connection without a reply.
      resolve(reply.split("\r\n")[0] ?? "");
    });
    socket.write(`${text}\r\n`);
  });
}

const hasTaskset = spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0;

/**
 * Starts redis-server and waits until it answers PING. `cpu` pins it to one core with taskset
 * when available (the benches keep servers off the load generator's core).
 */
export async function startRedisServer(options: { cpu?: number } = {}): Promise<RedisServer> {
  requireRedisServer();
  const dir = mkdtempSync(join(tmpdir(), "shardkit-redis-"));
  const socketPath = join(dir, "redis.sock");
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = "";

  const launch = async (): Promise<void> => {
    log = "";
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--unixsocket", socketPath, "--dir", dir, "--save", "", "--appendonly", "no", "--loglevel", "warning"];
    const pinned = options.cpu !== undefined && hasTaskset;
    const proc = spawn(pinned ? "taskset" : REDIS_SERVER, pinned ? ["-c", String(options.cpu), REDIS_SERVER, ...args] : args, {
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    proc.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child = proc;
    exited = new Promise((resolve) => proc.once("exit", () => resolve()));
    const started = Date.now();
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`redis-server exited at start:\n${log}`);
      try {
        if ((await command(socketPath, "PING", 200)) === "+PONG") return;
      } catch {
        // not listening yet
      }
      if (Date.now() - started > 10_000) {
        proc.kill("SIGKILL");
        throw new Error(`redis-server did not answer PING within 10 s:\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const stop = async (options: { keepData?: boolean } = {}): Promise<void> => {
    const proc = child;
    if (proc === undefined) return;
    child = undefined;
    if (proc.exitCode === null && proc.signalCode === null) {
      // SHUTDOWN SAVE writes dump.rdb, which the next start loads; NOSAVE drops everything.
      await command(socketPath, options.keepData === true ? "SHUTDOWN SAVE" : "SHUTDOWN NOSAVE").catch(() => proc.kill("SIGKILL"));
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (options.keepData !== true) rmSync(join(dir, "dump.rdb"), { force: true });
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    socketPath,
    stop,
    async restart(options = {}) {
      await stop(options);
      await launch();
    },
    pause() {
      child?.kill("SIGSTOP");
    },
    resume() {
      child?.kill("SIGCONT");
    },
    async close() {
      child?.kill("SIGCONT");
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
