// Index rows → FastNEAR's wire objects, keys in alphabetical order (serde_json's order).

import type { RestJsonBody } from "../../../generated/rest/routes.js";
import type { AccountStateRow, ContractRow, FtRow } from "../../indexer/IndexStore.js";

type FullBody = RestJsonBody<"accountFull", 200>;

export const ftRowJson = (row: FtRow): FullBody["tokens"][number] => ({
  balance: row.balance,
  contract_id: row.contractId,
  last_update_block_height: row.lastUpdateBlockHeight,
});

export const nftRowJson = (row: ContractRow): FullBody["nfts"][number] => ({
  contract_id: row.contractId,
  last_update_block_height: row.lastUpdateBlockHeight,
});

export const poolRowJson = (row: ContractRow): FullBody["pools"][number] => ({
  last_update_block_height: row.lastUpdateBlockHeight,
  pool_id: row.contractId,
});

export const accountStateJson = (state: AccountStateRow | undefined): FullBody["state"] =>
  state === undefined ? null : { balance: state.balance, locked: state.locked, storage_bytes: state.storageBytes };
