import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mlDsa65FromSeed } from "@shardkit/primitives/mlDsa65";
import { formatPublicKeyAsHandle } from "@shardkit/primitives/publicKeyHandle";
import { dumpGenesis } from "../../../src/chain/genesis/dumpGenesis.js";
import { NEARCORE_RUNTIME_PARAMETERS as P } from "../../../src/chain/runtime/parameters.js";
import { EMPTY_ED25519_KEY } from "../../../src/chain/runtime/receipt.js";
import { transactionCost } from "../../../src/chain/runtime/transactionCost.js";
import { stateChangeOfWrite, stateChangeToWrite } from "../../../src/chain/state/stateChange.js";
import { accessKeyTrieKey } from "../../../src/chain/store/trieKeys.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, GAS_PRICE, openChain, settle, submit } from "./helpers.js";

const ML = mlDsa65FromSeed(new Uint8Array(32).fill(7));
const HANDLE = formatPublicKeyAsHandle(ML.publicKey);
const dir = mkdtempSync(join(tmpdir(), "shardkit-mldsa-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ML-DSA-65 in the runtime", () => {
  it("burns ml_dsa_65_verification_cost for the signer's key and each Delegate's inner key, never in the receipt's gas", () => {
    const transfer: Action[] = [{ type: "Transfer", deposit: 1n }];
    const ed = transactionCost(P, ALICE, BOB, transfer, GAS_PRICE, EMPTY_ED25519_KEY);
    const ml = transactionCost(P, ALICE, BOB, transfer, GAS_PRICE, ML.publicKey);
    expect(ml.gasBurnt - ed.gasBurnt).toBe(100_000_000_000n);
    expect(ml.gasRemaining).toBe(ed.gasRemaining);
    expect(ml.totalCost - ed.totalCost).toBe(100_000_000_000n * GAS_PRICE);

    const delegate = (publicKey: typeof ML.publicKey): Action => ({
      type: "Delegate",
      delegateAction: { senderId: BOB, receiverId: ALICE, actions: [], nonce: 1n, maxBlockHeight: 10n, publicKey },
      signature: { keyType: publicKey.keyType, data: new Uint8Array(publicKey.keyType === 2 ? 3309 : 64) },
    });
    const edInner = transactionCost(P, ALICE, BOB, [delegate(EMPTY_ED25519_KEY)], GAS_PRICE, ML.publicKey);
    const mlInner = transactionCost(P, ALICE, BOB, [delegate(ML.publicKey), delegate(ML.publicKey)], GAS_PRICE, ML.publicKey);
    const twoEdInner = transactionCost(P, ALICE, BOB, [delegate(EMPTY_ED25519_KEY), delegate(EMPTY_ED25519_KEY)], GAS_PRICE, EMPTY_ED25519_KEY);
    expect(mlInner.gasBurnt - twoEdInner.gasBurnt).toBe(3n * 100_000_000_000n);
    expect(edInner.gasBurnt).toBeGreaterThan(0n);
  });

  it("an access key state change round-trips through its handle (the full key cannot be read back)", () => {
    const accessKey = { nonce: 5n, permission: "FullAccess" as const };
    const write = stateChangeToWrite({ type: "accessKey", accountId: ALICE, publicKey: ML.publicKey, accessKey });
    expect(write.key).toBe(accessKeyTrieKey(ALICE, ML.publicKey));
    expect(write.key.length).toBe(1 + ALICE.length + 1 + 33);
    const read = stateChangeOfWrite(write.key, write.value);
    expect(read).toEqual({ type: "accessKey", accountId: ALICE, publicKey: HANDLE, accessKey });
    // The handle string names the same entry (sandbox patches and forks write keys by it).
    expect(stateChangeToWrite(read!)).toEqual(write);
  });

  it("a state dump leaves ML-DSA-65 keys out (a genesis record names a full key) and still loads", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "AddKey", publicKey: ML.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
    for (let i = 0; i < 3; i++) chain.produceBlock();
    const file = join(dir, "dump.json");
    const { skipped } = await dumpGenesis(chain, chain.head(), file);
    expect(skipped).toBe(1);
    expect(readFileSync(file, "utf8")).not.toContain("ml-dsa-65");
    expect(chain.at(chain.head()).accessKeys(ALICE).map((k) => k.publicKey)).toContain(HANDLE);
    const copy = await openChain({ genesisFile: file });
    const keys = copy.at(copy.head()).accessKeys(ALICE).map((k) => k.publicKey);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys).not.toContain(HANDLE);
  });
});
