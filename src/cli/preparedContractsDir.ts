import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where the CLI's chains keep prepared contracts (vm/PreparedContractFiles.ts), one directory
 * for all of a user's shardkit processes: `$SHARDKIT_CACHE_DIR`, else `$XDG_CACHE_HOME/shardkit`,
 * else `~/.cache/shardkit`, then `prepared-contracts`. An empty `SHARDKIT_CACHE_DIR` turns it off.
 */
export function preparedContractsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.SHARDKIT_CACHE_DIR;
  if (chosen === "") return undefined;
  const root = chosen ?? join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "shardkit");
  return join(root, "prepared-contracts");
}
