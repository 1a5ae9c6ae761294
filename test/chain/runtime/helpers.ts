import { Chain, type ChainOptions, type TransactionStatus, type TxExecutionStatus } from "../../../src/chain/node.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { decodeAccount } from "../../../src/chain/primitives/account.js";
import { ed25519FromSeed, type Ed25519KeyPair } from "../../../src/chain/primitives/ed25519.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import {
  encodeSignedTransaction,
  signTransaction,
  type Action,
  type TransactionSigner,
} from "../../../src/chain/transaction/index.js";

export const NEAR = 10n ** 24n;
export const GAS_PRICE = 100_000_000n;
/** min_gas_purchase_price (NEP-642): receipt gas is bought at 10^9 while blocks burn at GAS_PRICE. */
export const PURCHASE_PRICE = 1_000_000_000n;
/** account_creation_charge minus the create-account execution gas at GAS_PRICE: 0.007 − 0.00072 NEAR. */
export const CREATE_ACCOUNT_CHARGE = 7_000_000_000_000_000_000_000n - 7_200_000_000_000n * GAS_PRICE;
/** The gas refund of a receipt that burnt `gas` of its gas and handed on none: the price surplus. */
export const priceSurplus = (gas: bigint): bigint => (PURCHASE_PRICE - GAS_PRICE) * gas;
/** Gas a Transfer burns per outcome: send (receipt creation + transfer) = exec of the same. */
export const TRANSFER_GAS = 223_182_562_500n;
export const T0 = 1_700_000_000_000;

export const ALICE = "alice.test.near"; // shard 0
export const BOB = "bob.test.near"; // shard 1
export const CAROL = "carol.test.near"; // shard 2
export const ROOT = "test.near"; // shard 3

export function openChain(opts: ChainOptions = {}): Promise<Chain> {
  return Chain.open({ blockTimeMs: 0, now: () => T0, ...opts });
}

/** A deterministic key from a label. */
export function keyOf(label: string): Ed25519KeyPair {
  return ed25519FromSeed(sha256(new TextEncoder().encode(`test-key:${label}`)));
}

const lastNonce = new WeakMap<Chain, Map<string, bigint>>();

export interface TxOptions {
  /** Signing key (default: the dev key of the signer). */
  key?: TransactionSigner;
  nonce?: bigint;
  blockHash?: Uint8Array;
}

/** Signs and encodes a V0 transaction; the nonce defaults to one above the key's state/used nonce. */
export function signedTx(chain: Chain, signerId: string, receiverId: string, actions: Action[], opts: TxOptions = {}): Uint8Array {
  const key = opts.key ?? devKeyPair(signerId);
  let nonce = opts.nonce;
  if (nonce === undefined) {
    const used = lastNonce.get(chain) ?? new Map<string, bigint>();
    lastNonce.set(chain, used);
    const id = `${signerId} ${formatPublicKey(key.publicKey)}`;
    const state = chain.at(chain.head()).accessKey(signerId, formatPublicKey(key.publicKey))?.nonce ?? 0n;
    const prev = used.get(id) ?? 0n;
    nonce = (prev > state ? prev : state) + 1n;
    used.set(id, nonce);
  }
  const stx = signTransaction(
    {
      version: 0,
      signerId,
      publicKey: key.publicKey,
      nonce,
      receiverId,
      blockHash: opts.blockHash ?? chain.head().hashBytes,
      actions,
    },
    key,
  );
  return encodeSignedTransaction(stx);
}

export function submit(chain: Chain, signerId: string, receiverId: string, actions: Action[], opts: TxOptions = {}): string {
  return chain.submitTransaction(signedTx(chain, signerId, receiverId, actions, opts)).hash;
}

const ORDER: TxExecutionStatus[] = ["NONE", "INCLUDED", "EXECUTED_OPTIMISTIC", "INCLUDED_FINAL", "EXECUTED", "FINAL"];

/** Produces blocks until the transaction is FINAL (or `max` blocks) and returns its status. */
export function settle(chain: Chain, hash: string, want: TxExecutionStatus = "FINAL", max = 20): TransactionStatus {
  for (let i = 0; i <= max; i++) {
    const s = chain.transactionStatus(hash);
    if (s === undefined) throw new Error(`transaction ${hash} unknown`);
    if (s.finalExecutionStatus === want || ORDER.indexOf(s.finalExecutionStatus) >= ORDER.indexOf(want)) {
      if (want !== "FINAL" || s.finalExecutionStatus === "FINAL") return s;
    }
    chain.produceBlock();
  }
  throw new Error(`transaction ${hash} did not reach ${want}: ${chain.transactionStatus(hash)?.finalExecutionStatus}`);
}

export function balanceOf(chain: Chain, accountId: string): bigint {
  return chain.at(chain.head()).account(accountId)?.amount ?? 0n;
}

/** Sum of amount + locked of every account on every shard at the head. */
export function sumOfBalances(chain: Chain): bigint {
  let total = 0n;
  const head = chain.head();
  for (const shardId of chain.shardLayout.shardIds) {
    chain.at(head).shard(shardId).scan("\x00", undefined, (_key, value) => {
      const account = decodeAccount(Buffer.from(value, "latin1"));
      total += account.amount + account.locked;
    });
  }
  return total;
}

export function outcomeOf(status: TransactionStatus) {
  if (status.outcome === undefined) throw new Error("no outcome");
  return status.outcome;
}
