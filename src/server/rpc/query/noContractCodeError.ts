import { RpcError, type BlockPoint } from "../../errors.js";

/** `view_code` on an account without a contract (nearcore's NO_CONTRACT_CODE, with its text). */
export class NoContractCodeError extends RpcError<"NO_CONTRACT_CODE"> {
  constructor(accountId: string, at: BlockPoint) {
    super(
      "NO_CONTRACT_CODE",
      { contract_account_id: accountId, ...at },
      `Contract code for contract ID #${accountId} has never been observed on the node`,
    );
  }
}
