import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where the CLI's chains keep prepared contracts (vm/PreparedContractFiles.ts), one directory
 * for all of a user's shardkit processes: `$SHARDKIT_CACHE_DIR`, else `$XDG_CACHE_HOME/shardkit`,
 * else `~/.cache/shardkit`, then `prepared-contracts`. An empty `SHARDKIT_CACHE_DIR` turns it off,
 * and so does a user without a home directory (near-workspaces may start a sandbox with an
 * empty environment; the home then comes from the password database, or there is none).
 */
export function preparedContractsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.SHARDKIT_CACHE_DIR;
  if (chosen === "") return undefined;
  if (chosen !== undefined) return join(chosen, "prepared-contracts");
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "shardkit", "prepared-contracts");
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  return home === "" ? undefined : join(home, ".cache", "shardkit", "prepared-contracts");
}
