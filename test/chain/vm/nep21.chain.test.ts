import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, NEAR, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";
import { call, deploy, TGAS } from "./deploy.js";
import { thirdPartyWasm } from "./thirdPartyWasm.js";

// The NEP-21 fungible token example (Rust) as published in near-shell@0.24.9's test resources.
const NEP21 = thirdPartyWasm("near-shell", "0.24.9", "test/res/fungible_token.wasm", "2bd0aeefd4465a0c06fb4a9515c6e3cd490ae9e18917a56b1bd8f05f9c859e73");
if (NEP21 === undefined) console.warn("near-shell@0.24.9 not cached and SHARDKIT_OFFLINE=1: NEP-21 tests skipped");

const json = (v: unknown): string => JSON.stringify(v);

describe.skipIf(NEP21 === undefined)("NEP-21 fungible token (third-party Rust contract)", () => {
  it("charges storage exactly as on NEAR (36.5e21 yocto for a new balance), refunds the rest, keeps balances", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, NEP21!);
    const exec = (signer: string, method: string, args: unknown, deposit = 0n) =>
      outcomeOf(settle(chain, submit(chain, signer, ALICE, [call(method, json(args), 100n * TGAS, deposit)])));
    const view = (method: string, args: unknown) => {
      const out = chain.at(chain.head()).callFunction(ALICE, method, new TextEncoder().encode(json(args)));
      return out.ok ? JSON.parse(new TextDecoder().decode(out.result)) : out.message;
    };
    expect(exec(ALICE, "new", { owner_id: ALICE, total_supply: "1000" }).status).toEqual({ SuccessValue: "" });
    expect(exec(ALICE, "transfer", { new_owner_id: BOB, amount: "100" }).status).toEqual({
      Failure: {
        ActionError: {
          index: 0,
          kind: {
            FunctionCallError: {
              ExecutionError:
                "Smart contract panicked: panicked at 'The required attached deposit is 36500000000000000000000, but the given attached deposit is is 0', src/lib.rs:254:13",
            },
          },
        },
      },
    });
    const paid = exec(ALICE, "transfer", { new_owner_id: BOB, amount: "100" }, NEAR);
    expect(paid.status).toEqual({ SuccessValue: "" });
    expect(paid.receipts_outcome[0]!.outcome.logs).toEqual([`Refunding ${NEAR - 36_500_000_000_000_000_000_000n} tokens for storage`]);
    expect([view("get_balance", { owner_id: BOB }), view("get_balance", { owner_id: ALICE }), view("get_total_supply", {})]).toEqual(["100", "900", "1000"]);
    expect(exec(BOB, "transfer", { new_owner_id: CAROL, amount: "1000" }, NEAR).status).toEqual({
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: "Smart contract panicked: Not enough balance" } } } },
    });
  });
});
