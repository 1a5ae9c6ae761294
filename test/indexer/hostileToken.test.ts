// A token contract whose ft_balance_of never returns and whose event names hundreds of
// accounts: the indexer reads each (token, account) pair at most once per block, within the
// per-block and per-contract caps and a small gas/time budget per read; pairs over the caps
// keep their previous balance and are read at later blocks.

import { describe, expect, it } from "vitest";
import { ftBalanceReaderFrom, viewCallOf } from "../../src/indexer/FtBalanceReader.js";
import { BlockIndexer } from "../../src/indexer/BlockIndexer.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { ALICE, openChain, settle, submit } from "../chain/runtime/helpers.js";
import { call, deploy } from "../chain/vm/deploy.js";
import { contract } from "../chain/vm/wat.js";

const ENTRIES = 150;
const entries = Array.from({ length: ENTRIES }, (_, i) => `{"old_owner_id":"a${i}.near","new_owner_id":"b${i}.near","amount":"1"}`);
const event = `EVENT_JSON:{"standard":"nep141","version":"1.0.0","event":"ft_transfer","data":[${entries.join(",")}]}`;
const escaped = event.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
const HOSTILE = contract(
  `(import "env" "log_utf8" (func $log (param i64 i64)))`,
  `(data (i32.const 0) "${escaped}")
   (func (export "go") (call $log (i64.const ${Buffer.byteLength(event)}) (i64.const 0)))
   (func (export "ft_balance_of") (loop $l (br $l)))
   (func (export "count") (local $i i32)
     (loop $l (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $l (i32.lt_u (local.get $i) (i32.const 2000000)))))`,
);

describe("indexer balance reads of a hostile token", () => {
  it("caps reads per block and per contract, reads each pair once, and defers the rest", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, HOSTILE);
    const view = ftBalanceReaderFrom(viewCallOf(chain));
    const reads: { height: number; pair: string }[] = [];
    const store = new MemoryIndexStore();
    const indexer = new BlockIndexer(chain, store, {
      ftBalances: (block, contractId, accountId) => {
        // Genesis rows are read once, before any block, under their own bound (genesisTokenRows.ts).
        if (block.height === chain.genesisBlock.height) return view(block, contractId, accountId);
        reads.push({ height: block.height, pair: `${contractId} ${accountId}` });
        return view(block, contractId, accountId);
      },
      maxBalanceReadsPerBlock: 16,
      maxBalanceReadsPerContract: 6,
    });
    indexer.start();
    const status = settle(chain, submit(chain, ALICE, ALICE, [call("go")]));
    expect(status.finalExecutionStatus).toBe("FINAL");
    const eventHeight = chain.head().height;
    await indexer.whenIndexed(eventHeight);

    const heights = new Set(reads.map((r) => r.height));
    for (const h of heights) {
      const atH = reads.filter((r) => r.height === h).map((r) => r.pair);
      expect(atH.length).toBeLessThanOrEqual(6);
      expect(new Set(atH).size).toBe(atH.length);
    }
    // The looping ft_balance_of failed within its budget: "" (read) or null (deferred).
    const rows = [...Array(ENTRIES).keys()].flatMap((i) => [...store.ftRows(`a${i}.near`), ...store.ftRows(`b${i}.near`)]);
    expect(rows).toHaveLength(2 * ENTRIES);
    const readRows = rows.filter((r) => r.balance === "");
    expect(readRows.length).toBeGreaterThan(0);
    expect(readRows.length).toBeLessThanOrEqual(reads.length);
    expect(rows.filter((r) => r.balance === null).length).toBe(2 * ENTRIES - readRows.length);

    // Later blocks read the deferred pairs (oldest first), six per block; rows keep their height.
    const before = reads.length;
    for (let i = 0; i < 3; i++) chain.produceBlock();
    await indexer.whenIndexed(chain.head().height);
    expect(reads.length).toBe(before + 18);
    expect(new Set(reads.map((r) => r.pair)).size).toBe(reads.length);
    const after = [...Array(ENTRIES).keys()].flatMap((i) => [...store.ftRows(`a${i}.near`), ...store.ftRows(`b${i}.near`)]);
    expect(after.filter((r) => r.balance === "").length).toBe(readRows.length + 18);
    expect(new Set(after.map((r) => r.lastUpdateBlockHeight)).size).toBe(1);
  });

  it("a balance read gets a gas cap below nearcore's view budget", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, HOSTILE);
    const head = chain.head();
    const none = new Uint8Array();
    expect(chain.at(head).callFunction(ALICE, "count", none, { timeLimitMs: 60_000 }).ok).toBe(true);
    const capped = chain.at(head).callFunction(ALICE, "count", none, { gas: 1_000_000_000_000n, timeLimitMs: 60_000 });
    expect(capped.ok).toBe(false);
    expect(JSON.stringify(capped)).toContain("GasLimitExceeded");
  });

  it("host failures of a balance read are not swallowed", () => {
    const read = ftBalanceReaderFrom(() => {
      throw new TypeError("host bug");
    });
    expect(() => read({} as never, "ft.near", "a.near")).toThrow("host bug");
  });
});
