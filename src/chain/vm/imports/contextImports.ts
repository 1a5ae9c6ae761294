import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

const encoder = new TextEncoder();

/**
 * UTF-8 of an account id, remembered for the last few ids: calls follow each other with the
 * same accounts. The bytes go into a register, which the host never writes into (a register
 * is replaced, not modified), so one array can be shared.
 */
const recentUtf8: { text: string; bytes: Uint8Array }[] = [];
const RECENT_IDS = 8;
function utf8(text: string): Uint8Array {
  for (const recent of recentUtf8) if (recent.text === text) return recent.bytes;
  const bytes = encoder.encode(text);
  recentUtf8.unshift({ text, bytes });
  if (recentUtf8.length > RECENT_IDS) recentUtf8.pop();
  return bytes;
}

/** Context API: account ids, input, block and epoch, storage usage, contract code. */
export function contextImports(l: VmLogic): HostImports {
  return {
    /** NEP-638 (protocol 85): the chain id of the genesis ("mainnet", "testnet", shardkit's own); also in views. */
    chain_id(reg: bigint): void {
      l.gas.payBase("base");
      l.writeRegister(reg, utf8(l.context.chainId));
    },
    current_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.writeRegister(reg, utf8(l.context.currentAccountId));
    },
    signer_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("signer_account_id");
      l.writeRegister(reg, utf8(l.context.signerAccountId));
    },
    signer_account_pk(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("signer_account_pk");
      l.writeRegister(reg, l.context.signerAccountPk);
    },
    predecessor_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("predecessor_account_id");
      l.writeRegister(reg, utf8(l.context.predecessorAccountId));
    },
    refund_to_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("refund_to_account_id");
      l.writeRegister(reg, utf8(l.context.refundToAccountId ?? l.context.predecessorAccountId));
    },
    input(reg: bigint): void {
      l.gas.payBase("base");
      // deterministic_account_ids: shared data, no per-byte register charge.
      l.writeRegister(reg, l.context.input, false);
    },
    block_index(): bigint {
      l.gas.payBase("base");
      return l.context.blockHeight;
    },
    block_timestamp(): bigint {
      l.gas.payBase("base");
      return l.context.blockTimestamp;
    },
    epoch_height(): bigint {
      l.gas.payBase("base");
      return l.context.epochHeight;
    },
    storage_usage(): bigint {
      l.gas.payBase("base");
      return l.storageUsage;
    },
    /**
     * nearcore `current_contract_code` (NEP-616), the account's `AccountContract`: 0 none,
     * 1 local (register: its code hash), 2 global by hash (register: the hash), 3 global by
     * account id (register: the deployer's id), as near-sdk and nearcore's sharded test
     * contract read it.
     */
    current_contract_code(reg: bigint): bigint {
      l.gas.payBase("base");
      const g = l.context.globalContract;
      if (g?.kind === "CodeHash") {
        l.writeRegister(reg, g.codeHash);
        return 2n;
      }
      if (g?.kind === "AccountId") {
        l.writeRegister(reg, utf8(g.accountId));
        return 3n;
      }
      if (l.context.codeHash.every((b) => b === 0)) return 0n;
      l.writeRegister(reg, l.context.codeHash);
      return 1n;
    },
  };
}
