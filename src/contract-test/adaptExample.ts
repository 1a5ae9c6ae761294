import type { TargetFacts } from "./discoverTarget.js";

export type AdaptedExample =
  | { readonly params: Record<string, unknown>; readonly shardkitOnly: boolean }
  | { readonly skip: string; readonly shardkitOnly: boolean };

/** Request types of `query` that read a contract (they need an account with code and state). */
const CONTRACT_REQUEST_TYPES = new Set(["view_state", "view_code", "call_function"]);

/**
 * Rewrites a spec example's by-name params so that they name things the target has: its final
 * block, an existing account and key, a recent transaction, a contract with state. Values that
 * cannot be adapted skip the example (with the reason).
 */
export function adaptExample(exampleName: string, params: Record<string, unknown>, facts: TargetFacts): AdaptedExample {
  const out: Record<string, unknown> = {};
  const readsContract = CONTRACT_REQUEST_TYPES.has(String(params["request_type"]));
  let shardkitOnly = false;
  for (const [name, value] of Object.entries(params)) {
    switch (name) {
      case "block_id":
        out[name] = value === null ? null : typeof value === "number" ? facts.finalHeight : facts.finalHash;
        break;
      case "account_id":
        if (readsContract) {
          if (facts.contract === undefined) return { skip: "needs a contract account with state (--contract)", shardkitOnly };
          shardkitOnly ||= facts.contract.shardkitOnly;
          out[name] = facts.contract.accountId;
        } else out[name] = facts.accountId;
        break;
      case "public_key":
        if (exampleName.includes("unknown")) out[name] = value; // a key nobody has
        else if (facts.publicKey === undefined) return { skip: `${facts.accountId} has no access key`, shardkitOnly };
        else out[name] = facts.publicKey;
        break;
      case "tx_hash":
      case "sender_account_id":
        if (facts.transaction === undefined) return { skip: "no transaction in the recent blocks", shardkitOnly };
        out[name] = name === "tx_hash" ? facts.transaction.hash : facts.transaction.signerId;
        break;
      case "receipt_id":
        if (facts.transaction?.receiptId === undefined) return { skip: "no receipt in the recent blocks", shardkitOnly };
        out[name] = facts.transaction.receiptId;
        break;
      case "signed_tx_base64":
        return { skip: "needs a transaction signed for the target (the transaction checks cover it with --signer)", shardkitOnly };
      case "epoch_id":
        out[name] = facts.epochId;
        break;
      case "chunk_id":
        out[name] = facts.chunkHash;
        break;
      case "shard_id":
        out[name] = facts.shardId;
        break;
      default:
        out[name] = value;
    }
  }
  return { params: out, shardkitOnly };
}
