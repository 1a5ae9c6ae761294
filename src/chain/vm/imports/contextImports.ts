import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Context API: account ids, input, block and epoch, storage usage, contract code. */
export function contextImports(l: VmLogic): HostImports {
  const c = l.context;
  return {
    current_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.writeRegister(reg, utf8(c.currentAccountId));
    },
    signer_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("signer_account_id");
      l.writeRegister(reg, utf8(c.signerAccountId));
    },
    signer_account_pk(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("signer_account_pk");
      l.writeRegister(reg, c.signerAccountPk);
    },
    predecessor_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("predecessor_account_id");
      l.writeRegister(reg, utf8(c.predecessorAccountId));
    },
    refund_to_account_id(reg: bigint): void {
      l.gas.payBase("base");
      l.denyInView("refund_to_account_id");
      l.writeRegister(reg, utf8(c.predecessorAccountId));
    },
    input(reg: bigint): void {
      l.gas.payBase("base");
      // deterministic_account_ids: shared data, no per-byte register charge.
      l.writeRegister(reg, c.input, false);
    },
    block_index(): bigint {
      l.gas.payBase("base");
      return c.blockHeight;
    },
    block_timestamp(): bigint {
      l.gas.payBase("base");
      return c.blockTimestamp;
    },
    epoch_height(): bigint {
      l.gas.payBase("base");
      return c.epochHeight;
    },
    storage_usage(): bigint {
      l.gas.payBase("base");
      return l.storageUsage;
    },
    current_contract_code(reg: bigint): bigint {
      l.gas.payBase("base");
      if (c.codeHash.every((b) => b === 0)) return 0n;
      l.writeRegister(reg, c.codeHash);
      return 1n;
    },
  };
}
