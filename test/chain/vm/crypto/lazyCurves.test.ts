/**
 * The pairing curves load on first use: a fresh process that imports the chain (and so the
 * VM with every host function) has not evaluated @noble/curves' bls12-381 or bn254; the first
 * operation of each loads its own curve.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../../..");

// Module files evaluated so far: ESM ones through a resolve hook, CommonJS ones from require's cache.
const SCRIPT = `
import { createRequire, register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const resolved = [];
port1.on("message", (url) => resolved.push(url));
port1.unref();
const HOOKS = "export function initialize({ port }) { globalThis.port = port; } export async function resolve(s, c, next) { const r = await next(s, c); globalThis.port.postMessage(r.url); return r; }";
register("data:text/javascript," + encodeURIComponent(HOOKS), { data: { port: port2 }, transferList: [port2] });
const cache = createRequire(process.cwd() + "/").cache;
const settle = () => new Promise((done) => setTimeout(done, 100));
const loaded = async () => {
  await settle();
  const names = [...Object.keys(cache), ...resolved].filter((k) => /@noble[\\/]curves[\\/](esm[\\/])?(bls12-381|bn254)\.js$/.test(k)).map((k) => k.split(/[\\/]/).pop());
  return [...new Set(names)].sort();
};
await import("./src/chain/node.ts");
const atImport = await loaded();
const bls = await import("./src/chain/vm/crypto/bls12381.ts");
const sum = bls.p1Sum(new Uint8Array(0));
const afterBls = await loaded();
const bn = await import("./src/chain/vm/crypto/altBn128.ts");
const zero = bn.g1Sum([]);
console.log(JSON.stringify({ atImport, afterBls, afterBn: await loaded(), sum: Array.from(sum.subarray(0, 2)), zero: zero.every((b) => b === 0) }));
`;

it("imports the chain without evaluating bls12-381 or bn254, and loads each on its first operation", () => {
  const run = spawnSync(process.execPath, ["--conditions=shardkit-source", "--import", "tsx", "--input-type=module", "-e", SCRIPT], { cwd: ROOT, encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(JSON.parse(run.stdout)).toEqual({
    atImport: [],
    afterBls: ["bls12-381.js"],
    afterBn: ["bls12-381.js", "bn254.js"],
    // The empty sum is the point at infinity: 0x40 then zeros.
    sum: [0x40, 0],
    zero: true,
  });
});
