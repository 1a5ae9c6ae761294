import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Our fixture contracts, built from contracts/src by `npm run build:contracts` and committed. */
export type FixtureContract = "ft" | "kv" | "nft" | "relay" | "staking-pool";

let buildDir: string | undefined;

/**
 * contracts/build of this package, found by walking up from this module: it sits three levels
 * up when run from source (src/chain/genesis) and four from the compiled dist/src/chain/genesis.
 */
function contractsBuildDir(): string {
  if (buildDir !== undefined) return buildDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "contracts", "build");
    if (existsSync(join(candidate, "kv.wasm"))) return (buildDir = candidate);
    dir = dirname(dir);
  }
  throw new Error("contracts/build/*.wasm not found next to the shardkit package (run npm run build:contracts)");
}

const cache = new Map<FixtureContract, Uint8Array>();

/** The committed wasm of a fixture contract. */
export function fixtureContractCode(name: FixtureContract): Uint8Array {
  let code = cache.get(name);
  if (code === undefined) {
    code = new Uint8Array(readFileSync(join(contractsBuildDir(), `${name}.wasm`)));
    cache.set(name, code);
  }
  return code;
}
