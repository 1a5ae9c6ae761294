import { isNearDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
import { KeyType, type PublicKey } from "@shardkit/primitives/publicKey";

/*
 * NEAR-implicit accounts (NEP-71): the account id is the lowercase hex of an ed25519 public
 * key, and a lone Transfer to it creates the account with that key. ETH-implicit accounts
 * ("0x" + 40 hex) are created by nearcore with a wallet contract; shardkit does not model
 * that contract, so it treats them as named accounts (fees and existence checks alike).
 * NEAR-deterministic accounts (NEP-616, "0s" + 40 hex) are implicit too: a lone Transfer
 * creates one without a key or contract, a DeterministicStateInit deploys its state.
 */

const HEX64 = /^[0-9a-f]{64}$/;

export function isNearImplicitAccount(accountId: string): boolean {
  return accountId.length === 64 && HEX64.test(accountId);
}

/** The ed25519 key a NEAR-implicit account id names. */
export function nearImplicitPublicKey(accountId: string): PublicKey {
  return { keyType: KeyType.ED25519, data: new Uint8Array(Buffer.from(accountId, "hex")) };
}

/** NEP-616 "0s" + 40 hex (near-account-id `AccountType::NearDeterministicAccount`). */
export function isNearDeterministicAccount(accountId: string): boolean {
  return isNearDeterministicAccountId(accountId);
}

/** The implicit account types shardkit models (near-account-id `is_implicit`, minus ETH-implicit). */
export function isImplicitAccount(accountId: string): boolean {
  return isNearImplicitAccount(accountId) || isNearDeterministicAccount(accountId);
}
