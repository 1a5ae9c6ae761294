import { base58Decode } from "@shardkit/primitives/base58";
import type { Account } from "../primitives/account.js";

/*
 * nearcore (since protocol 83, _DeprecatedEthImplicitGlobalContract) creates an ETH-implicit
 * account with no key and no code: its contract is nearcore's ETH wallet contract as a global
 * contract by code hash (runtime/near-wallet-contract `eth_wallet_global_contract_hash`), and
 * its storage usage counts the account record and the 32-byte hash.
 */

/** The wallet contract's code hash per chain id; every other chain id uses the localnet build's. */
const WALLET_CONTRACT_HASH: Readonly<Record<string, string>> = {
  mainnet: "2zodJZK2e4nnv5AqwCRnenNSmkikXhEd7PPY6BmfTmW4",
  mocknet: "2zodJZK2e4nnv5AqwCRnenNSmkikXhEd7PPY6BmfTmW4",
  testnet: "3PpYvRxBfC5BkZxTw8ZFG3D52w1ZRhvDDWirKoxphMDn",
};
/** sha256 of nearcore's wallet_contract_localnet.wasm, hex d2884a90…c142c49e8d. */
const LOCALNET_WALLET_CONTRACT_HEX = "d2884a900d4fa370e48f1e3d4865d4dc0dbd093c89f0e7baef2eddc142c49e8d";

export function ethWalletContractHash(chainId: string): Uint8Array {
  const b58 = WALLET_CONTRACT_HASH[chainId];
  return b58 === undefined ? new Uint8Array(Buffer.from(LOCALNET_WALLET_CONTRACT_HEX, "hex")) : base58Decode(b58);
}

/** The account a Transfer of `deposit` creates at an ETH-implicit id. */
export function newEthImplicitAccount(chainId: string, deposit: bigint, numBytesAccount: number): Account {
  const codeHash = ethWalletContractHash(chainId);
  return {
    amount: deposit,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage: numBytesAccount + codeHash.length,
    globalContract: { kind: "CodeHash", codeHash },
  };
}
