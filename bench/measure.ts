// Small measuring helpers the bench parts share.
import { readFileSync } from "node:fs";
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
