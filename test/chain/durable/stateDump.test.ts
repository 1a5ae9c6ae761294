import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dumpGenesis } from "../../../src/chain/genesis/dumpGenesis.js";
import type { Chain } from "../../../src/chain/node.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, keyOf, openChain, settle, submit } from "../runtime/helpers.js";
import { cliNodeArgs } from "../../cli/cliProcess.js";

const dir = mkdtempSync(join(tmpdir(), "shardkit-dump-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const roots = (chain: Chain, height: number) => chain.shardLayout.shardIds.map((id) => chain.at(chain.blockByHeight(height)!).stateRoot(id));

/** A chain with transfers, a function-call key, a new account and FT contract state written by calls. */
async function busyChain(dataDir?: string): Promise<Chain> {
  const chain = await openChain(dataDir === undefined ? {} : { dataDir });
  const fc = { FunctionCall: { allowance: NEAR, receiverId: BOB, methodNames: ["m"] } };
  const txs = [
    submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 3n * NEAR }]),
    submit(chain, CAROL, "ft.test.near", [
      { type: "FunctionCall", methodName: "storage_deposit", args: new TextEncoder().encode("{}"), gas: 100n * 10n ** 12n, deposit: 2n * NEAR },
    ]),
    submit(chain, BOB, BOB, [{ type: "AddKey", publicKey: keyOf("fc").publicKey, accessKey: { nonce: 0n, permission: fc } }]),
    submit(chain, ROOT, "new.test.near", [{ type: "CreateAccount" }, { type: "Transfer", deposit: 5n * NEAR }]),
  ];
  for (const tx of txs) settle(chain, tx);
  for (let i = 0; i < 3; i++) chain.produceBlock(); // nothing in flight
  return chain;
}

describe("state dump", () => {
  it("a chain started from a dump has the dumped block's state roots and continues after it", async () => {
    const chain = await busyChain();
    const block = chain.head();
    const file = join(dir, "dump.json");
    const { records, skipped } = await dumpGenesis(chain, block, file);
    expect(skipped).toBe(0);
    const parsed = JSON.parse(readFileSync(file, "utf8"));
    expect(parsed.records).toHaveLength(records);
    expect(parsed.genesis_height).toBe(block.height + 1);
    expect(parsed.records).toContainEqual({
      AccessKey: {
        account_id: BOB,
        public_key: keyOf("fc").publicKeyString,
        access_key: { nonce: expect.any(Number), permission: { FunctionCall: { allowance: NEAR.toString(), receiver_id: BOB, method_names: ["m"] } } },
      },
    });
    expect(parsed.records.some((r: { Data?: { account_id: string } }) => r.Data?.account_id === "ft.test.near")).toBe(true);
    expect(parsed.records.some((r: { Contract?: { account_id: string } }) => r.Contract?.account_id === "ft.test.near")).toBe(true);

    const copy = await openChain({ genesisFile: file });
    expect(copy.genesisBlock.height).toBe(block.height + 1);
    expect(roots(copy, copy.genesisBlock.height)).toEqual(roots(chain, block.height));
    expect(copy.at(copy.head()).account("new.test.near")).toEqual(chain.at(block).account("new.test.near"));
    expect(copy.totalSupply).toBe(block.totalSupply);
    const next = submit(copy, ALICE, CAROL, [{ type: "Transfer", deposit: 1n }]);
    expect(settle(copy, next).finalExecutionStatus).toBe("FINAL");
  });

  // Eight CLI runs through tsx: slow on a loaded machine, so a longer limit than the suite's 30 s.
  it("`shardkit state dump` writes a data dir's final block (or --block H) and refuses bad input", { timeout: 90_000 }, async () => {
    const dataDir = join(dir, "chain");
    const chain = await busyChain(dataDir);
    const final = chain.blockByFinality("final");
    const expected = roots(chain, final.height);
    const at = chain.genesisBlock.height + 2;
    const expectedAt = roots(chain, at);
    await chain.close();

    const out = join(dir, "cli-dump.json");
    const run = (...args: string[]) => spawnSync(process.execPath, [...cliNodeArgs, "state", ...args], { encoding: "utf8" });
    const ok = run("dump", "--data-dir", dataDir, "--out", out);
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(`of block ${final.height} (${final.hash})`);
    expect(roots(await openChain({ genesisFile: out }), final.height + 1)).toEqual(expected);
    expect(run("dump", "--data-dir", dataDir, "--out", out, "--block", String(at)).status).toBe(0);
    expect(roots(await openChain({ genesisFile: out }), at + 1)).toEqual(expectedAt);

    const refused: [string[], RegExp][] = [
      [["dump", "--data-dir", dataDir], /state dump needs --out FILE/],
      [["dump", "--data-dir", dataDir, "--out", out, "--block", "x"], /--block must be a block height/],
      [["dump", "--data-dir", dataDir, "--out", out, "--block", "999999"], /no block 999999/],
      [["dump", "--data-dir", join(dir, "empty"), "--out", out], /holds no chain/],
      [["frob"], /unknown state action "frob"/],
    ];
    for (const [args, message] of refused) {
      const r = run(...args);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  });
});
