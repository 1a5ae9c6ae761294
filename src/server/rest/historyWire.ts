import type { RestJsonBody } from "../../../generated/rest/routes.js";
import type { TransactionDetails } from "../../indexer/history/HistoryStore.js";

type TransactionJson = RestJsonBody<"historyTransactions", 200>["transactions"][number];

/** A transaction's record as `/v0/transactions` and `/v0/receipt` show it (FastNEAR's "raw transaction data"). */
export const transactionJson = (details: TransactionDetails): TransactionJson => ({
  transaction: details.transaction,
  execution_outcome: details.execution_outcome,
  receipts: details.receipts.map((r) => ({ receipt: r.receipt, execution_outcome: r.execution_outcome })),
  data_receipts: [...details.data_receipts],
});
