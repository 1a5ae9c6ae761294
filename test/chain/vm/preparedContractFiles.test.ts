import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serialize } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { NEARCORE_RUNTIME_PARAMETERS } from "../../../src/chain/runtime/parameters.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { PreparedContractFiles, preparedFileBytes } from "../../../src/chain/vm/PreparedContractFiles.js";
import { prepareContract } from "../../../src/chain/vm/wasm/prepareContract.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { ALICE, BOB, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";
import { call, deploy, TGAS } from "./deploy.js";
import { contract } from "./wat.js";

const kvCode = new Uint8Array(readFileSync(new URL("../../../contracts/build/kv.wasm", import.meta.url)));

const LIMITS = wasmLimitsOf(NEARCORE_RUNTIME_PARAMETERS);
const root = mkdtempSync(join(tmpdir(), "shardkit-prepared-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CODE = contract("", `(func (export "main") (local i32) (local.set 0 (i32.const 7))) (func (export "other"))`);
/** The one file a fresh directory holds after `code` was prepared through it. */
const onlyFile = (dir: string): string => {
  const [generation] = readdirSync(dir);
  const files = readdirSync(join(dir, generation!));
  expect(files).toHaveLength(1);
  return join(dir, generation!, files[0]!);
};

describe("PreparedContractFiles: prepared contracts kept on disk between processes", () => {
  it("a second cache over the same directory reads the file instead of preparing: the same binary, exports and metering", () => {
    const dir = join(root, "same");
    const first = new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE);
    const second = new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE);
    expect(first.result.ok && second.result.ok).toBe(true);
    if (!first.result.ok || !second.result.ok) return;
    expect(second.codeLength).toBe(CODE.length);
    expect(second.result.contract.code).toEqual(first.result.contract.code);
    expect([...second.result.contract.exportedFunctions.keys()]).toEqual(["main", "other"]);
    expect(second.result.contract.gasGlobals).toEqual(first.result.contract.gasGlobals);
    expect(second.result.contract.writeTracking).toEqual(first.result.contract.writeTracking);
    expect(second.result.contract.instanceReuse).toEqual(first.result.contract.instanceReuse);
    expect(second.result.contract.module).toBeInstanceOf(WebAssembly.Module);
    expect(WebAssembly.Module.exports(second.result.contract.module)).toEqual(WebAssembly.Module.exports(first.result.contract.module));
  });

  it("what the file says is what a later process gets (it is read, not re-derived); a failed preparation is not kept", () => {
    const dir = join(root, "read");
    new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE);
    const path = onlyFile(dir);
    // A file recording a failure for this (valid) code: a cache that reads it reports the failure.
    writeFileSync(path, preparedFileBytes({ codeLength: CODE.length, result: { ok: false, error: "Deserialization" } }));
    expect(new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE).result).toEqual({ ok: false, error: "Deserialization" });

    const broken = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]);
    const failedDir = join(root, "failed");
    const failed = new ContractCache(LIMITS, undefined, {}, failedDir).get("b", () => broken);
    expect(failed.result.ok).toBe(false);
    // prepareContract reports a one-off (a stack overflow while compiling) as a failure too: only successes are filed.
    expect(new PreparedContractFiles(failedDir, LIMITS, {}).load(broken)).toBeUndefined();
  });

  it("files by the code's own hash: another code under the same code hash key is prepared, not served the first one's file", () => {
    const dir = join(root, "by-content");
    const files = new PreparedContractFiles(dir, LIMITS, {});
    const other = contract("", `(func (export "different"))`);
    new ContractCache(LIMITS, undefined, {}, dir).get("same-key", () => CODE);
    expect(files.load(other)).toBeUndefined();
    const entry = new ContractCache(LIMITS, undefined, {}, dir).get("same-key", () => other);
    expect(entry.result.ok && [...entry.result.contract.exportedFunctions.keys()]).toEqual(["different"]);
  });

  it("a damaged or foreign file is removed and the code prepared again", () => {
    const dir = join(root, "damaged");
    new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE);
    const path = onlyFile(dir);
    const good = readFileSync(path);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 1]! ^= 1; // one bit of the prepared binary: still deserialisable, caught by the digest
    const bad = [
      good.subarray(0, good.length >> 1),
      Buffer.from("not a prepared contract"),
      flipped,
      serialize({ codeLength: CODE.length, result: { ok: false, error: "Deserialization" } }), // no digest: a file of an older layout
      preparedFileBytes({ codeLength: CODE.length + 1, result: { ok: false, error: "Deserialization" } }),
    ];
    for (const bytes of bad) {
      writeFileSync(path, bytes);
      const entry = new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE);
      expect(entry.result).toMatchObject({ ok: true });
      // Prepared again and filed again: the file reads back whole.
      expect(new PreparedContractFiles(dir, LIMITS, {}).load(CODE)?.result).toMatchObject({ ok: true });
    }
  });

  it("keeps the preparations of other limits and metering options apart", () => {
    const dir = join(root, "generations");
    const otherLimits = { ...LIMITS, maxFunctionsNumberPerContract: LIMITS.maxFunctionsNumberPerContract - 1 };
    new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE);
    new ContractCache(LIMITS, undefined, { gasInGlobals: false }, dir).get("a", () => CODE);
    new ContractCache(otherLimits, undefined, {}, dir).get("a", () => CODE);
    expect(readdirSync(dir)).toHaveLength(3);
    const hostMetered = new PreparedContractFiles(dir, LIMITS, { gasInGlobals: false }).load(CODE);
    expect(hostMetered?.result).toMatchObject({ ok: true, contract: { gasGlobals: undefined } });
    expect(new PreparedContractFiles(join(root, "empty"), otherLimits, {}).load(CODE)).toBeUndefined();
    const expected = prepareContract(CODE, otherLimits);
    const loaded = new PreparedContractFiles(dir, otherLimits, {}).load(CODE)?.result;
    expect(loaded?.ok && expected.ok && loaded.contract.code).toEqual(expected.ok && expected.contract.code);
  });

  it("stays within its byte budget, removing the least recently used files (a load counts as a use)", () => {
    const dir = join(root, "budget");
    const codes = [0, 1, 2].map((i) => contract("", `(func (export "f${i}"))`)); // files of one size
    const save = (files: PreparedContractFiles, code: Uint8Array) => files.save(code, { codeLength: code.length, result: prepareContract(code, LIMITS) });
    save(new PreparedContractFiles(dir, LIMITS, {}), codes[0]!);
    const fileBytes = readFileSync(onlyFile(dir)).length;
    // Room for 2.7 files: a third file takes it over, and removing one brings it under 3/4 of the budget.
    const files = new PreparedContractFiles(dir, LIMITS, {}, Math.floor(fileBytes * 2.7));
    save(files, codes[1]!);
    const generation = join(dir, readdirSync(dir)[0]!);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    for (const name of readdirSync(generation)) utimesSync(join(generation, name), twoDaysAgo, twoDaysAgo);
    expect(files.load(codes[0]!)).toBeDefined(); // used now; codes[1] last used two days ago
    save(files, codes[2]!);
    expect(readdirSync(generation)).toHaveLength(2);
    expect(files.load(codes[1]!)).toBeUndefined();
    expect(files.load(codes[0]!)).toBeDefined();
    expect(files.load(codes[2]!)).toBeDefined();
  });

  it("an unwritable directory costs only the file: the contract is prepared and served", () => {
    const file = join(root, "a-file");
    writeFileSync(file, "");
    const entry = new ContractCache(LIMITS, undefined, {}, join(file, "below")).get("a", () => CODE);
    expect(entry.result).toMatchObject({ ok: true });
  });
});

describe("a chain whose VM keeps prepared contracts on disk", () => {
  it("executes as one that prepares every contract itself: the same outcomes and gas, cold and warm", async () => {
    const dir = join(root, "chain");
    const run = async (preparedContractsDir: string | undefined) => {
      const chain = await openChain(preparedContractsDir === undefined ? {} : { preparedContractsDir });
      deploy(chain, ALICE, kvCode);
      const put = outcomeOf(settle(chain, submit(chain, BOB, ALICE, [call("set", JSON.stringify({ key: "k", value: "v" }), 30n * TGAS, 0n)])));
      const got = chain.at(chain.head()).callFunction(ALICE, "get", new TextEncoder().encode(JSON.stringify({ key: "k" })));
      await chain.close();
      return { status: put.status, gasBurnt: put.receipts_outcome.map((r) => r.outcome.gas_burnt), got };
    };
    const none = await run(undefined);
    expect(none.status).toHaveProperty("SuccessValue");
    expect(none.gasBurnt[0]).toBeGreaterThan(0);
    expect(await run(dir)).toEqual(none); // cold: prepared here and filed
    expect(readdirSync(dir)).toHaveLength(1);
    expect(await run(dir)).toEqual(none); // warm: read from the file
  });
});

describe("directories of other builds", () => {
  it("are removed when a new one starts if no file was written to them for 30 days; recent ones stay", () => {
    const dir = join(root, "prune");
    const stale = join(dir, "a-build-of-long-ago");
    const recent = join(dir, "a-build-of-last-week");
    for (const old of [stale, recent]) {
      mkdirSync(old, { recursive: true });
      writeFileSync(join(old, "x.prepared"), "");
    }
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);
    utimesSync(stale, daysAgo(31), daysAgo(31));
    utimesSync(recent, daysAgo(7), daysAgo(7));
    new ContractCache(LIMITS, undefined, {}, dir).get("a", () => CODE);
    const left = readdirSync(dir);
    expect(left).toHaveLength(2); // this build's and last week's
    expect(left).toContain("a-build-of-last-week");
  });
});
