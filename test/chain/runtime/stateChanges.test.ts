import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Chain } from "../../../src/chain/node.js";
import { MIGRATION, type KeyStateChanges, type StateChangeCause } from "../../../src/chain/runtime/StateChangeCause.js";
import { StateUpdate } from "../../../src/chain/runtime/StateUpdate.js";
import { MemoryStateStore } from "../../../src/chain/store/MemoryStateStore.js";
import type { PublicKey } from "@shardkit/primitives/publicKey";
import { stateChangeToWrite } from "../../../src/chain/state/stateChange.js";
import { isReportedStateKey } from "../../../src/chain/store/trieKeys.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, CAROL, ROOT, keyOf, openChain, submit } from "./helpers.js";

const TGAS = 10n ** 12n;
const kv = (methodName: string, args: object): Action => ({
  type: "FunctionCall",
  methodName,
  args: new TextEncoder().encode(JSON.stringify(args)),
  gas: 30n * TGAS,
  deposit: 0n,
});

/** Every key of the reported columns with its value, over all shards, after `height`. */
function reportedState(chain: Chain, height: number): Map<string, string> {
  const block = chain.blockByHeight(height)!;
  const out = new Map<string, string>();
  for (const state of block.postState) {
    state.scan("", undefined, (key, value) => {
      if (isReportedStateKey(key)) out.set(key, value);
    });
  }
  return out;
}

/**
 * The consistency every reader of the changes relies on: starting from the previous block's
 * state, applying a block's recorded changes in order gives the block's state, and no key
 * changed without a recorded change.
 */
function expectChangesReplayBlock(chain: Chain, height: number): void {
  const before = reportedState(chain, height - 1);
  const after = reportedState(chain, height);
  // Typed changes written back as trie writes: the typed reading loses nothing.
  const recorded = chain.stateChangesInBlock(chain.blockByHeight(height)!).entries().map((entry) => entry.map(({ change }) => stateChangeToWrite(change)));
  const replayed = new Map(before);
  const keys = recorded.map((writes) => writes[0]!.key);
  expect(keys).toEqual([...keys].sort()); // trie key order, no duplicates
  expect(new Set(keys).size).toBe(keys.length);
  for (const writes of recorded) {
    expect(writes.length).toBeGreaterThan(0);
    for (const { key, value } of writes) {
      expect(key).toBe(writes[0]!.key); // one entry's changes are one key's
      if (value === null) replayed.delete(key);
      else replayed.set(key, value);
    }
  }
  expect(replayed).toEqual(after);
}

const ACCOUNTS = [ALICE, BOB, CAROL, ROOT];

/** One random transaction of the workload: transfers across shards, keys, kv writes and removals. */
const txArbitrary = fc.oneof(
  fc.record({ kind: fc.constant("transfer" as const), from: fc.constantFrom(...ACCOUNTS), to: fc.constantFrom(...ACCOUNTS), amount: fc.bigInt({ min: 1n, max: 10n ** 20n }) }),
  fc.record({ kind: fc.constant("key" as const), who: fc.constantFrom(...ACCOUNTS), label: fc.constantFrom("k1", "k2"), add: fc.boolean() }),
  fc.record({ kind: fc.constant("kv" as const), who: fc.constantFrom(...ACCOUNTS), key: fc.constantFrom("a", "ab", "b"), value: fc.option(fc.string({ maxLength: 3 })) }),
);

describe("recorded state changes", () => {
  it("replay every block: previous state + changes in order = the block's state (property over random workloads)", async () => {
    const chain = await openChain();
    const keysAdded = new Set<string>();
    chain.produceBlock();
    for (let h = chain.genesisBlock.height + 1; h <= chain.head().height; h++) expectChangesReplayBlock(chain, h);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(txArbitrary, { maxLength: 6 }), { minLength: 1, maxLength: 3 }), async (blocks) => {
        const from = chain.head().height + 1;
        for (const txs of blocks) {
          for (const tx of txs) {
            try {
              if (tx.kind === "transfer") submit(chain, tx.from, tx.to, [{ type: "Transfer", deposit: tx.amount }]);
              else if (tx.kind === "key") {
                const id = `${tx.who}/${tx.label}`;
                if (tx.add === keysAdded.has(id)) continue;
                const publicKey = keyOf(id).publicKey;
                submit(chain, tx.who, tx.who, [
                  tx.add ? { type: "AddKey", publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } } : { type: "DeleteKey", publicKey },
                ]);
                if (tx.add) keysAdded.add(id);
                else keysAdded.delete(id);
              } else {
                submit(chain, tx.who, "kv.test.near", [tx.value === null ? kv("remove", { key: tx.key }) : kv("set", { key: tx.key, value: tx.value })]);
              }
            } catch {
              // a refused transaction changes nothing
            }
          }
          chain.produceBlock();
        }
        chain.produceBlock(); // cross-shard receipts and refunds
        for (let h = from; h <= chain.head().height; h++) expectChangesReplayBlock(chain, h);
      }),
      { numRuns: 15, seed: 7 },
    );
  });

  it("lists the genesis records with cause initial_state", async () => {
    const chain = await openChain();
    const genesis = chain.stateChangesInBlock(chain.genesisBlock);
    const all = genesis.entries();
    const writes = all.map((entry) => stateChangeToWrite(entry.at(-1)!.change));
    expect(new Map(writes.map(({ key, value }) => [key, value]))).toEqual(reportedState(chain, chain.genesisBlock.height));
    expect(all.every((entry) => entry.length === 1 && entry[0]!.cause.type === "initial_state")).toBe(true);
    const aliceAccount = all.find(([c]) => c!.change.type === "account" && c!.change.accountId === ALICE)!;
    expect(genesis.account(ALICE)).toEqual(aliceAccount);
    expect(genesis.account("alice")).toEqual([]);
    const aliceKeys = genesis.accessKeys(ALICE);
    expect(aliceKeys.length).toBeGreaterThan(0);
    expect(aliceKeys.every(({ change }) => change.type === "accessKey" && change.accountId === ALICE)).toBe(true);
    const [firstKey] = aliceKeys;
    if (firstKey!.change.type !== "accessKey") throw new Error("not an access key");
    expect(genesis.accessKey(ALICE, firstKey!.change.publicKey as PublicKey)).toEqual([firstKey]);
  });
});

/** A model of nearcore's TrieUpdate: one change per key per commit, each with that commit's cause. */
type Op = { op: "set"; key: string; value: string } | { op: "remove"; key: string } | { op: "commit" } | { op: "rollback" };

describe("StateUpdate records changes as nearcore's TrieUpdate does", () => {
  const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant("set" as const), key: fc.constantFrom("\x00a", "\x00b", "\x02a,k", "\x09a,x", "\x07"), value: fc.string({ maxLength: 2 }) }),
    fc.record({ op: fc.constant("remove" as const), key: fc.constantFrom("\x00a", "\x09a,x", "\x07") }),
    fc.constant({ op: "commit" as const }),
    fc.constant({ op: "rollback" as const }),
  );

  it("appends the last prospective value of each key per commit, drops rolled back writes and other columns (property)", () => {
    fc.assert(
      fc.property(fc.array(opArbitrary, { maxLength: 30 }), (ops) => {
        const base = new MemoryStateStore().build(["\x00a", "\x09a,x"], ["base-a", "base-x"]);
        const su = new StateUpdate(base);
        const model = new Map<string, { cause: StateChangeCause; value: string | null }[]>();
        let prospective = new Map<string, string | null>();
        let commits = 0;
        for (const op of [...ops, { op: "commit" as const }]) {
          if (op.op === "set") (su.set(op.key, op.value), prospective.set(op.key, op.value));
          else if (op.op === "remove") (su.remove(op.key), prospective.set(op.key, null));
          else if (op.op === "rollback") (su.rollback(), (prospective = new Map()));
          else {
            const cause: StateChangeCause = commits++ % 2 === 0 ? MIGRATION : { type: "receipt_processing", receiptHash: new Uint8Array([commits]) };
            su.commit(cause);
            for (const [key, value] of prospective) model.set(key, [...(model.get(key) ?? []), { cause, value }]);
            prospective = new Map();
          }
        }
        const expected: KeyStateChanges[] = [...model]
          .filter(([key]) => isReportedStateKey(key))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([key, changes]) => ({ key, changes }));
        expect(su.stateChanges()).toEqual(expected);
        // the last change of a key is what the block writes
        const sorted = su.toChangeSet().toSorted();
        for (const { key, changes } of expected) expect(sorted.values[sorted.keys.indexOf(key)]).toBe(changes.at(-1)!.value);
      }),
      { numRuns: 300 },
    );
  });
});
