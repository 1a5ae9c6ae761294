import asc from "assemblyscript/asc";

/** Compiles an AssemblyScript source (one file, stub runtime, -O3) to wasm in memory. */
export async function compileAssemblyScript(source: string): Promise<Uint8Array> {
  let wasm: Uint8Array | undefined;
  const { error, stderr } = await asc.main(["main.ts", "--outFile", "main.wasm", "-O3", "--runtime", "stub", "--noAssert"], {
    readFile: (name: string) => (name === "main.ts" ? source : null),
    writeFile: (name: string, contents: string | Uint8Array) => {
      if (name.endsWith(".wasm") && typeof contents !== "string") wasm = contents;
    },
    listFiles: () => [],
  });
  if (error !== null || wasm === undefined) throw new Error(`asc failed: ${String(error)} ${stderr.toString()}`);
  return wasm;
}

/** A small contract exercising loops, closures (call_indirect), bulk memory, strings and globals. */
export const AS_SAMPLE_CONTRACT = `
@external("env", "value_return") declare function value_return(len: u64, ptr: u64): void;
@external("env", "log_utf8") declare function log_utf8(len: u64, ptr: u64): void;
let counter: i32 = 0;
function twice(f: (x: i32) => i32, x: i32): i32 { return f(f(x)); }
export function main(): void {
  const data = new Uint8Array(64);
  for (let i = 0; i < 64; i++) data[i] = <u8>(i * 3);
  memory.copy(changetype<usize>(data.dataStart) + 8, changetype<usize>(data.dataStart), 16);
  memory.fill(changetype<usize>(data.dataStart) + 40, 7, 8);
  counter += twice((x: i32): i32 => x * 2 + 1, data[9]);
  const s = "hello " + counter.toString() + " " + data[44].toString();
  const bytes = String.UTF8.encode(s);
  log_utf8(<u64>bytes.byteLength, changetype<usize>(bytes));
  value_return(<u64>bytes.byteLength, changetype<usize>(bytes));
}
export function recurse(): void { if (counter < 100000) { counter++; recurse(); } }
`;
