import { isNearDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
import { KeyType, type PublicKey } from "@shardkit/primitives/publicKey";

/*
 * NEAR-implicit accounts (NEP-71): the account id is the lowercase hex of an ed25519 public
 * key, and a lone Transfer to it creates the account with that key. ETH-implicit accounts
 * ("0x" + 40 lowercase hex, NEP-518): a lone Transfer creates them using nearcore's ETH wallet
 * contract as a global contract by code hash (see ethImplicitAccount.ts). NEAR-deterministic
 * accounts (NEP-616, "0s" + 40 hex) are implicit too: a lone Transfer creates one without a key
 * or contract, a DeterministicStateInit deploys its state.
 */

const HEX64 = /^[0-9a-f]{64}$/;
const ETH_ADDRESS = /^0x[0-9a-f]{40}$/;

export function isNearImplicitAccount(accountId: string): boolean {
  return accountId.length === 64 && HEX64.test(accountId);
}

export function isEthImplicitAccount(accountId: string): boolean {
  return accountId.length === 42 && ETH_ADDRESS.test(accountId);
}


/** The ed25519 key a NEAR-implicit account id names. */
export function nearImplicitPublicKey(accountId: string): PublicKey {
  return { keyType: KeyType.ED25519, data: new Uint8Array(Buffer.from(accountId, "hex")) };
}

/** NEP-616 "0s" + 40 hex (near-account-id `AccountType::NearDeterministicAccount`). */
export function isNearDeterministicAccount(accountId: string): boolean {
  return isNearDeterministicAccountId(accountId);
}

/** nearcore `account_is_implicit` (with eth_implicit_accounts on, as since protocol 70): NEAR-, ETH-implicit and NEAR-deterministic ids. */
export function isImplicitAccount(accountId: string): boolean {
  return isNearImplicitAccount(accountId) || isEthImplicitAccount(accountId) || isNearDeterministicAccount(accountId);
}
