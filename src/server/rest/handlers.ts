import type { RestHandlers } from "../../../generated/rest/routes.js";
import { accountFt } from "./accountFt.js";
import { accountFull } from "./accountFull.js";
import { accountNft } from "./accountNft.js";
import { accountStaking } from "./accountStaking.js";
import { ftTop } from "./ftTop.js";
import { health } from "./health.js";
import { historyAccount } from "./historyAccount.js";
import { historyBlock } from "./historyBlock.js";
import { historyBlocks } from "./historyBlocks.js";
import { historyReceipt } from "./historyReceipt.js";
import { historyTransfers } from "./historyTransfers.js";
import { historyTransactions } from "./historyTransactions.js";
import { publicKeyAccounts } from "./publicKeyAccounts.js";
import { publicKeyAllAccounts } from "./publicKeyAllAccounts.js";
import type { RestContext } from "./RestContext.js";
import { status } from "./status.js";

/** One handler per operation of specs/openapi (tsc fails when one is missing). */
export const restHandlers: RestHandlers<RestContext> = {
  accountFt,
  accountFull,
  accountNft,
  accountStaking,
  ftTop,
  health,
  historyAccount,
  historyBlock,
  historyBlocks,
  historyReceipt,
  historyTransfers,
  historyTransactions,
  publicKeyAccounts,
  publicKeyAllAccounts,
  status,
};
