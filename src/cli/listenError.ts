import { UsageError } from "./flags.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/** The listener ports of `serve` and `gateway`, with the interface they bind. */
export interface ListenFlags {
  readonly host: string;
  readonly rpcPort: number;
  readonly archivalPort: number;
  readonly apiPort: number;
}

/** A port that cannot be bound, said with the flag that chose it (undefined for any other error). */
export function listenError(error: unknown, options: ListenFlags, command: "serve" | "gateway"): UsageError | undefined {
  if (!isJsonObject(error)) return undefined;
  const { code, port } = error;
  if (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL") return undefined;
  const flag = port === options.rpcPort ? "--rpc-port" : port === options.archivalPort ? "--archival-port" : port === options.apiPort ? "--api-port" : undefined;
  if (code === "EADDRNOTAVAIL") return new UsageError(`cannot listen on --host ${options.host}: no such local address`, command);
  const why = code === "EADDRINUSE" ? "is already in use" : "needs privileges to bind";
  return new UsageError(`port ${String(port)}${flag ? ` (${flag})` : ""} on ${options.host} ${why}; choose another, or 0 for any free port`, command);
}
