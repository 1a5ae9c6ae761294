import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidTransactionError, type Chain } from "../../../src/chain/node.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, keyOf, openChain, submit, sumOfBalances } from "./helpers.js";

const DEV = [ROOT, ALICE, BOB, CAROL];
const NAMES = ["x", "y", "zz"];

type Op =
  | { kind: "transfer"; from: number; to: number; amount: bigint }
  | { kind: "create"; parent: number; name: number; amount: bigint }
  | { kind: "delete"; parent: number; name: number; beneficiary: number }
  | { kind: "call"; from: number; to: number; gas: bigint; deposit: bigint }
  | { kind: "stake"; from: number; amount: bigint }
  | { kind: "blocks"; n: number };

const amount = fc.oneof(
  fc.bigInt({ min: 0n, max: 20n * NEAR }),
  fc.constantFrom(0n, 1n, 5_000n * NEAR, 30_000n * NEAR), // some too large to pay
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("transfer" as const), from: fc.nat(7), to: fc.nat(9), amount }),
  fc.record({ kind: fc.constant("create" as const), parent: fc.nat(3), name: fc.nat(2), amount }),
  fc.record({ kind: fc.constant("delete" as const), parent: fc.nat(3), name: fc.nat(2), beneficiary: fc.nat(9) }),
  fc.record({ kind: fc.constant("call" as const), from: fc.nat(3), to: fc.nat(9), gas: fc.bigInt({ min: 1n, max: 10n ** 14n }), deposit: amount }),
  fc.record({ kind: fc.constant("stake" as const), from: fc.nat(3), amount: fc.bigInt({ min: 0n, max: 100n * NEAR }) }),
  fc.record({ kind: fc.constant("blocks" as const), n: fc.integer({ min: 1, max: 3 }) }),
);

/** Accounts by index: the dev accounts, sub-accounts x/y/zz of alice, and missing ones. */
function accountAt(i: number): string {
  if (i < DEV.length) return DEV[i]!;
  if (i < DEV.length + NAMES.length) return `${NAMES[i - DEV.length]}.${ALICE}`;
  return i % 2 === 0 ? "ghost.test.near" : "ef".repeat(32); // missing named / implicit
}
const subAccount = (parent: number, name: number) => `${NAMES[name]}.${DEV[parent]}`;
const keyFor = (id: string) => (DEV.includes(id) ? devKeyPair(id) : keyOf(id));

function apply(chain: Chain, o: Op): void {
  const tx = (signer: string, receiver: string, actions: Action[]) => {
    try {
      submit(chain, signer, receiver, actions, { key: keyFor(signer) });
    } catch (e) {
      if (!(e instanceof InvalidTransactionError)) throw e;
    }
  };
  switch (o.kind) {
    case "transfer":
      if (chain.at(chain.head()).account(accountAt(o.from)) !== undefined) tx(accountAt(o.from), accountAt(o.to), [{ type: "Transfer", deposit: o.amount }]);
      return;
    case "create": {
      const id = subAccount(o.parent, o.name);
      tx(DEV[o.parent]!, id, [
        { type: "CreateAccount" },
        { type: "Transfer", deposit: o.amount },
        { type: "AddKey", publicKey: keyOf(id).publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } },
      ]);
      return;
    }
    case "delete": {
      const id = subAccount(o.parent, o.name);
      if (chain.at(chain.head()).account(id) !== undefined) tx(id, id, [{ type: "DeleteAccount", beneficiaryId: accountAt(o.beneficiary) }]);
      return;
    }
    case "call":
      tx(DEV[o.from]!, accountAt(o.to), [{ type: "FunctionCall", methodName: "f", args: new Uint8Array(3), gas: o.gas, deposit: o.deposit }]);
      return;
    case "stake":
      tx(DEV[o.from]!, DEV[o.from]!, [{ type: "Stake", stake: o.amount, publicKey: keyOf(`v${o.from}`).publicKey }]);
      return;
    case "blocks":
      for (let i = 0; i < o.n; i++) chain.produceBlock();
  }
}

describe("total supply", () => {
  it("changes only by the tokens burnt, and equals the sum of all balances once receipts settle", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), fc.boolean(), async (ops, tight) => {
        const chain = await openChain({ epochLength: 4, ...(tight ? { gasLimit: 5 * 10 ** 11 } : {}) });
        for (const o of ops) apply(chain, o);
        for (let i = 0; i < 12; i++) chain.produceBlock(); // let every receipt (and refund) run
        let supply = chain.totalSupply;
        for (let h = 1; h <= chain.head().height; h++) {
          const block = chain.blockByHeight(h)!;
          const burnt = block.view.chunks.reduce((n, c) => n + BigInt(c.balance_burnt), 0n);
          supply -= burnt;
          expect(BigInt(block.view.header.total_supply)).toBe(supply);
        }
        expect(sumOfBalances(chain)).toBe(supply);
        for (const shardId of chain.shardLayout.shardIds) expect(chain.at(chain.head()).delayedReceiptCount(shardId)).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});
