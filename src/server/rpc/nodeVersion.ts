import type { NodeVersion } from "../../../generated/rpc/types.js";

/** Package version reported by `status` and `client_config`. */
const VERSION = "0.1.0";

/** The node's build information (nearcore's `Version`; its schema requires `commit`). */
export function nodeVersion(): NodeVersion {
  return { version: VERSION, build: "shardkit", commit: `shardkit-${VERSION}`, rustc_version: `node ${process.version}` };
}
