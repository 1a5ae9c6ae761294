// Builds every contract in contracts/src with asc into contracts/build/<name>.wasm.
// `--check` compiles in memory and fails when a committed wasm differs (or is missing).
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The slice of asc's API we use (its own typings would pull AssemblyScript's globals into tsc). */
interface AscApi {
  main(
    argv: string[],
    options: {
      writeFile(name: string, contents: Uint8Array | string): void;
      stderr: { write(chunk: string | Uint8Array): boolean };
    },
  ): Promise<{ error: Error | null }>;
}
const ASC_MODULE: string = "assemblyscript/asc";
const asc = ((await import(ASC_MODULE)) as { default: AscApi }).default;

const CONTRACTS_DIR = dirname(fileURLToPath(import.meta.url));
const SOURCE_DIR = join(CONTRACTS_DIR, "src");
export const BUILD_DIR = join(CONTRACTS_DIR, "build");
export const HARNESS_DIR = join(CONTRACTS_DIR, "harness");

/**
 * Fixed compiler flags, so the output is byte-for-byte reproducible: size-optimised, the stub
 * runtime (bump allocator, no GC: a call is short-lived), and only MVP + sign-extension +
 * mutable-globals opcodes (no bulk memory or non-trapping float conversions), which every
 * NEAR protocol version accepts.
 */
export const ASC_FLAGS: readonly string[] = [
  "-Oz",
  "--runtime",
  "stub",
  "--noAssert",
  "--disable",
  "bulk-memory,nontrapping-f2i,simd,reference-types,multi-value",
];

/** Contract names: one source file each in contracts/src. */
export function contractNames(): string[] {
  return readdirSync(SOURCE_DIR)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Compiles one contract in memory; throws with asc's diagnostics on failure. */
export function compileContract(name: string): Promise<Uint8Array> {
  return compileFile(join(SOURCE_DIR, `${name}.ts`));
}

/** Compiles an AssemblyScript file (a contract or a test harness in contracts/harness) with ASC_FLAGS. */
export async function compileFile(path: string): Promise<Uint8Array> {
  const name = path.slice(path.lastIndexOf("/") + 1, -3);
  let wasm: Uint8Array | undefined;
  let stderr = "";
  const { error } = await asc.main([path, "--outFile", `${name}.wasm`, ...ASC_FLAGS], {
    writeFile(filename, contents) {
      if (filename.endsWith(".wasm") && typeof contents !== "string") wasm = contents;
    },
    stderr: {
      write(chunk: string | Uint8Array) {
        stderr += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
        return true;
      },
    },
  });
  if (error !== null || wasm === undefined)
    throw new Error(`asc failed for ${name}: ${error?.message ?? "no output"}\n${stderr}`);
  return wasm;
}

async function main(check: boolean): Promise<number> {
  mkdirSync(BUILD_DIR, { recursive: true });
  let stale = 0;
  for (const name of contractNames()) {
    const wasm = await compileContract(name);
    const path = join(BUILD_DIR, `${name}.wasm`);
    if (check) {
      let committed: Buffer | undefined;
      try {
        committed = readFileSync(path);
      } catch {
        committed = undefined;
      }
      if (committed === undefined || !committed.equals(wasm)) {
        console.error(`contracts/build/${name}.wasm is stale: run npm run build:contracts`);
        stale++;
      } else console.log(`${name}.wasm up to date (${wasm.length} bytes)`);
    } else {
      writeFileSync(path, wasm);
      console.log(`${name}.wasm ${wasm.length} bytes`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    console.error(`unknown argument(s): ${unknown.join(" ")} (usage: build.ts [--check])`);
    process.exit(2);
  }
  main(args.includes("--check")).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
