import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/** A genesis file or record that cannot be loaded; `recordIndex` names the bad record. */
export class GenesisError extends ShardkitError<"INVALID_GENESIS"> {
  override readonly name = "GenesisError";
  constructor(
    message: string,
    readonly recordIndex?: number,
    options?: { cause?: unknown },
  ) {
    super("INVALID_GENESIS", recordIndex === undefined ? message : `genesis record #${recordIndex}: ${message}`, options);
  }
}
