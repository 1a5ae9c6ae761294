// The spec's transaction schemas against the transaction codec's JSON views
// (src/chain/transaction: toSignedTransactionView, toActionView): every view the codec
// renders for random transactions and actions validates, and the codec's view types are
// assignable to the generated ones. Keeps the spec and the codec from drifting apart.

import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  decodeSignedTransaction,
  encodeSignedTransaction,
  toActionView,
  toSignedTransactionView,
  type ActionView as CodecActionView,
  type SignedTransactionView as CodecSignedTransactionView,
} from "../src/chain/transaction/index.js";
import { action, signedTransaction } from "../test/chain/transaction/arbitraries.js";
import type {
  ActionView,
  ReceiptView,
  SignedTransactionView,
  TxStatusWithOutcome,
} from "../generated/rpc/types.js";
import { validateResult } from "../generated/rpc/validators.js";

const hash = "33KtesATGSZENesBj1t5JgMRRQpNMNH3AXEfpPwrBc2B";
const pk = "ed25519:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp";

function txResult(transaction: CodecSignedTransactionView): TxStatusWithOutcome {
  return {
    final_execution_status: "INCLUDED",
    status: "Started",
    transaction,
    transaction_outcome: {
      id: transaction.hash,
      block_hash: hash,
      proof: [],
      outcome: {
        logs: [],
        receipt_ids: [hash],
        gas_burnt: 1,
        tokens_burnt: "100000000",
        executor_id: transaction.signer_id,
        status: { SuccessReceiptId: hash },
        metadata: { version: 1, gas_profile: null },
      },
    },
    receipts_outcome: [],
  };
}

function actionReceipt(actions: CodecActionView[]): ReceiptView {
  return {
    predecessor_id: "alice.near",
    receiver_id: "bob.near",
    receipt_id: hash,
    priority: 0,
    receipt: {
      Action: {
        signer_id: "alice.near",
        signer_public_key: pk,
        gas_price: "100000000",
        output_data_receivers: [],
        input_data_ids: [],
        actions,
        is_promise_yield: false,
      },
    },
  };
}

describe("codec views against the spec", () => {
  it("validates every signed transaction view as a tx result", () => {
    fc.assert(
      fc.property(signedTransaction, (stx) => {
        const view = toSignedTransactionView(decodeSignedTransaction(encodeSignedTransaction(stx)));
        const result = JSON.parse(JSON.stringify(txResult(view))) as unknown;
        const validate = validateResult.tx;
        expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("validates every action view inside a receipt", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 3 }), (actions) => {
        const result = JSON.parse(JSON.stringify(actionReceipt(actions.map(toActionView)))) as unknown;
        const validate = validateResult.EXPERIMENTAL_receipt;
        expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("types the codec's views as the generated ones", () => {
    expectTypeOf<CodecActionView>().toMatchTypeOf<ActionView>();
    expectTypeOf<CodecSignedTransactionView>().toMatchTypeOf<SignedTransactionView>();
  });
});
