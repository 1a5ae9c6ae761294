// Small measuring helpers the bench parts share.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import autocannon from "autocannon";

/** The median (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc). */
export function cpuMicros(pid: number, statFile = `/proc/${pid}/stat`): number {
  // Fields after the ")" of the command name: state is field 3, utime 14 and stime 15.
  const fields = readFileSync(statFile, "utf8").split(") ")[1]!.split(" ");
  const ticksPerSecond = 100; // USER_HZ on Linux
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
}

/** CPU time the calling process's main thread has used so far, in microseconds (Linux /proc; its task id is the pid). */
export function mainThreadCpuMicros(): number {
  return cpuMicros(process.pid, `/proc/self/task/${process.pid}/stat`);
}

/** GET `url` with 50 connections for `seconds`: requests/s and the CPU per request of process `pid`. */
export async function loadGet(url: string, pid: number, seconds: number): Promise<{ rate: number; cpuPerRequest: number }> {
  const cpuBefore = cpuMicros(pid);
  const result = await autocannon({ url, method: "GET", connections: 50, pipelining: 1, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load run had ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rate: result.requests.average, cpuPerRequest: (cpuMicros(pid) - cpuBefore) / result.requests.total };
}

/**
 * Runs `measure` with every thread of this process allowed on every core, then puts the
 * process's affinity back. `npm run bench` pins itself to one core (the load generator's, away
 * from the servers it loads); a part that measures work running beside the main thread in this
 * process (a worker thread) must have the cores a server has, or it measures both on one.
 */
export async function withAllCores<T>(measure: () => Promise<T>): Promise<T> {
  const taskset = (...args: string[]) => execFileSync("taskset", args, { encoding: "utf8" });
  let mask: string;
  try {
    mask = taskset("-p", String(process.pid)).trim().split(": ").pop()!;
  } catch {
    return measure(); // no taskset: never pinned
  }
  // cpus(), not availableParallelism(): the latter counts only the cores the process is pinned to.
  taskset("-a", "-p", (2n ** BigInt(cpus().length) - 1n).toString(16), String(process.pid));
  try {
    return await measure();
  } finally {
    taskset("-a", "-p", mask, String(process.pid));
  }
}
