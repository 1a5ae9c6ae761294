// Token, key and account activity on a running `shardkit serve`, driven over its JSON-RPC only
// (dev keys, nonces and block hashes read over RPC), so the same helper drives an upstream
// that is a separate process.

import { FT_ACCOUNT, NFT_ACCOUNT, POOL_ACCOUNT, RELAY_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { encodeSignedTransaction, signTransaction, type Action } from "../../src/chain/transaction/index.js";
import { ed25519FromSeed } from "../../src/chain/primitives/ed25519.js";

export const ALICE = "alice.test.near";
export const BOB = "bob.test.near";
export const CAROL = "carol.test.near";
export const ROOT = "test.near";
export const TOKEN_ACCOUNTS = [ROOT, ALICE, BOB, CAROL, FT_ACCOUNT, NFT_ACCOUNT, POOL_ACCOUNT, RELAY_ACCOUNT];
const TGAS = 10n ** 12n;
const NEAR = 10n ** 24n;
const MIN_STORAGE = 1_250_000_000_000_000_000_000n;

let nextId = 1;
export async function rpc<T = unknown>(url: string, method: string, params: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}

const call = (methodName: string, args: unknown, deposit = 0n, gas = 100n * TGAS): Action => ({
  type: "FunctionCall",
  methodName,
  args: Buffer.from(JSON.stringify(args)),
  gas,
  deposit,
});

/** Signs with the signer's dev key (or `key`) and sends with wait_until FINAL; returns the outcome's status. */
export async function transact(
  url: string,
  signer: string,
  receiver: string,
  actions: Action[],
  key = devKeyPair(signer),
): Promise<{ status: Record<string, unknown> }> {
  const accessKey = await rpc<{ nonce: number }>(url, "query", {
    request_type: "view_access_key",
    finality: "optimistic",
    account_id: signer,
    public_key: key.publicKeyString,
  });
  const head = await rpc<{ header: { hash: string } }>(url, "block", { finality: "final" });
  const stx = signTransaction(
    {
      version: 0,
      signerId: signer,
      publicKey: key.publicKey,
      nonce: BigInt(accessKey.nonce) + 1n,
      receiverId: receiver,
      blockHash: base58Decode(head.header.hash),
      actions,
    },
    key,
  );
  return rpc(url, "send_tx", { signed_tx_base64: Buffer.from(encodeSignedTransaction(stx)).toString("base64"), wait_until: "FINAL" });
}

/**
 * FT transfers (one a transfer-call with its refund, one failing), NFT mint and transfer, a
 * staking deposit, a function-call key added and a full key removed, an account created and
 * deleted: every kind of row the index keeps. `round` makes repeated runs distinct.
 */
export async function tokenActivity(url: string, round = 0): Promise<void> {
  const expectOk = (r: { status: Record<string, unknown> }, what: string) => {
    if ("Failure" in r.status) throw new Error(`${what} failed: ${JSON.stringify(r.status)}`);
  };
  if (round === 0) {
    for (const account of [ALICE, BOB, RELAY_ACCOUNT]) {
      expectOk(await transact(url, ROOT, FT_ACCOUNT, [call("storage_deposit", { account_id: account }, MIN_STORAGE)]), "storage_deposit");
    }
  }
  expectOk(await transact(url, ROOT, FT_ACCOUNT, [call("ft_transfer", { receiver_id: ALICE, amount: `${1000 + round}` }, 1n)]), "ft_transfer");
  expectOk(await transact(url, ALICE, FT_ACCOUNT, [call("ft_transfer", { receiver_id: BOB, amount: "250" }, 1n)]), "ft_transfer");
  expectOk(
    await transact(url, ROOT, FT_ACCOUNT, [
      call("ft_transfer_call", { receiver_id: RELAY_ACCOUNT, amount: "100", msg: "keep 30" }, 1n, 300n * TGAS),
    ]),
    "ft_transfer_call",
  );
  // CAROL never registered: the token panics, and the failed call leaves no row.
  await transact(url, ALICE, FT_ACCOUNT, [call("ft_transfer", { receiver_id: CAROL, amount: "1" }, 1n)]);
  const tokenId = `pg-${round}`;
  expectOk(
    await transact(url, ROOT, NFT_ACCOUNT, [call("nft_mint", { token_id: tokenId, token_owner_id: ALICE, token_metadata: { title: tokenId } }, 10n ** 23n)]),
    "nft_mint",
  );
  expectOk(await transact(url, ALICE, NFT_ACCOUNT, [call("nft_transfer", { receiver_id: CAROL, token_id: tokenId }, 1n)]), "nft_transfer");
  expectOk(await transact(url, BOB, POOL_ACCOUNT, [call("deposit_and_stake", {}, 50n * NEAR, 200n * TGAS)]), "deposit_and_stake");

  // Keys and accounts: a function-call key on CAROL, a throwaway account created then deleted.
  const extra = ed25519FromSeed(new Uint8Array(32).fill(7 + round));
  expectOk(
    await transact(url, CAROL, CAROL, [
      {
        type: "AddKey",
        publicKey: extra.publicKey,
        accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: FT_ACCOUNT, methodNames: [] } } },
      },
    ]),
    "AddKey",
  );
  const temp = `tmp${round}.${ROOT}`;
  const tempKey = devKeyPair(temp);
  expectOk(
    await transact(url, ROOT, temp, [
      { type: "CreateAccount" },
      { type: "Transfer", deposit: NEAR },
      { type: "AddKey", publicKey: tempKey.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } },
    ]),
    "create account",
  );
  expectOk(await transact(url, temp, temp, [{ type: "DeleteAccount", beneficiaryId: ROOT }], tempKey), "delete account");
}
