import { describe, expect, it } from "vitest";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { ALICE, BOB, CAROL, NEAR, balanceOf, keyOf, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";
import { call, deploy, TGAS } from "./deploy.js";
import { thirdPartyWasm } from "./thirdPartyWasm.js";

// NEAR's testnet linkdrop (near-sdk 2/3, Rust, the full 46-function import set) as published
// in near-workspaces@5.0.0: a real third-party contract running on the VM.
const LINKDROP = thirdPartyWasm(
  "near-workspaces",
  "5.0.0",
  "core_contracts/testnet-linkdrop.wasm",
  "006468efb06dbc91e04dbc90a31fac4b8684062e9e4f9c228de53154f6f49c72",
);
if (LINKDROP === undefined) console.warn("near-workspaces@5.0.0 not cached and SHARDKIT_OFFLINE=1: linkdrop tests skipped");

const json = (v: unknown): string => JSON.stringify(v);
const view = (chain: Awaited<ReturnType<typeof openChain>>, method: string, args: unknown) => chain.at(chain.head()).callFunction(ALICE, method, new TextEncoder().encode(json(args)));

describe.skipIf(LINKDROP === undefined)("testnet linkdrop (third-party Rust contract)", () => {
  it("send adds a claim key; claiming with it pays out and deletes the key; a bad view panics with near-sdk's text", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, LINKDROP!);
    const drop = keyOf("linkdrop claim key");
    const pk = formatPublicKey(drop.publicKey);
    expect(outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("send", json({ public_key: pk }), 100n * TGAS, 5n * NEAR)]))).status).toEqual({ SuccessValue: "" });
    const key = chain.at(chain.head()).accessKey(ALICE, pk)!;
    expect(key.permission).toEqual({ FunctionCall: { allowance: NEAR, receiverId: ALICE, methodNames: ["claim", "create_account_and_claim"] } });
    const balance = view(chain, "get_key_balance", { key: pk });
    expect(balance.ok && new TextDecoder().decode(balance.result)).toBe(json((4n * NEAR).toString()));
    const bad = view(chain, "get_key_balance", {});
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toEqual({
      ExecutionError: "Smart contract panicked: panicked at 'Failed to deserialize input from JSON.: Error(\"missing field `key`\", line: 1, column: 2)', src/lib.rs:47:1",
    });

    const b0 = balanceOf(chain, BOB);
    const claim = outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [call("claim", json({ account_id: BOB }), 50n * TGAS)], { key: drop })));
    expect(claim.status).toEqual({ SuccessValue: "" });
    expect(balanceOf(chain, BOB)).toBe(b0 + 4n * NEAR);
    expect(chain.at(chain.head()).accessKey(ALICE, pk)).toBeUndefined();
  });

  it("create_account_and_claim creates a sub-account with the dropped funds; a foreign parent fails and the callback reports false", async () => {
    const chain = await openChain();
    deploy(chain, ALICE, LINKDROP!);
    const drop = keyOf("linkdrop create key");
    const owner = formatPublicKey(keyOf("new owner").publicKey);
    settle(chain, submit(chain, CAROL, ALICE, [call("send", json({ public_key: formatPublicKey(drop.publicKey) }), 100n * TGAS, 5n * NEAR)]));
    const created = outcomeOf(
      settle(chain, submit(chain, ALICE, ALICE, [call("create_account_and_claim", json({ new_account_id: `dropped.${ALICE}`, new_public_key: owner }), 100n * TGAS)], { key: drop })),
    );
    expect(created.status).toEqual({ SuccessValue: Buffer.from("true").toString("base64") });
    expect(chain.at(chain.head()).account(`dropped.${ALICE}`)!.amount).toBe(4n * NEAR);
    expect(chain.at(chain.head()).accessKey(`dropped.${ALICE}`, owner)!.permission).toBe("FullAccess");

    const foreign = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("create_account", json({ new_account_id: "newbie.test.near", new_public_key: owner }), 100n * TGAS, 2n * NEAR)])));
    expect(foreign.status).toEqual({ SuccessValue: Buffer.from("false").toString("base64") });
    const failed = foreign.receipts_outcome.find((r) => "Failure" in (r.outcome.status as object))!;
    expect(failed.outcome.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { CreateAccountNotAllowed: { account_id: "newbie.test.near", predecessor_id: ALICE } } } },
    });
  });
});
