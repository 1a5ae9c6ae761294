import type { CheckContext } from "./CheckContext.js";

/** Facts read from the target, used to adapt the spec's examples to it. */
export interface TargetFacts {
  readonly isShardkit: boolean;
  readonly chainId: string;
  readonly finalHeight: number;
  readonly finalHash: string;
  readonly epochId: string;
  /** An account that exists (the final block's producer). */
  readonly accountId: string;
  /** One of its access keys, when it has any. */
  readonly publicKey: string | undefined;
  readonly shardId: number;
  readonly chunkHash: string;
  /** A contract account with state, and whether only shardkit has it. */
  readonly contract: { readonly accountId: string; readonly shardkitOnly: boolean } | undefined;
  /** A recent transaction and one of its receipts, when the last blocks have any. */
  readonly transaction: { readonly hash: string; readonly signerId: string; readonly receiptId: string | undefined } | undefined;
  /** Height of the node's oldest block (status.sync_info.earliest_block_height) when it says. */
  readonly earliestHeight: number | undefined;
}

/** How far back to look for a transaction to test `tx` and `EXPERIMENTAL_receipt` with. */
const TRANSACTION_SEARCH_BLOCKS = 30;
/** shardkit's dev-chain FT contract: code, views and a state small enough to read unpaginated. */
const SHARDKIT_CONTRACT = "ft.test.near";

/** Reads what the checks need from the target, with read-only calls only. */
export async function discoverTarget(t: CheckContext, rpcUrl: string, contractAccount: string | undefined): Promise<TargetFacts> {
  const status = await t.rpcResult(rpcUrl, "status", {});
  const block = await t.rpcResult(rpcUrl, "block", { finality: "final" });
  const accountId: string = block.author;
  const keys = await t.rpcResult(rpcUrl, "query", { request_type: "view_access_key_list", finality: "final", account_id: accountId });
  const firstChunk = block.chunks[0];
  const isShardkit = status.version?.build === "shardkit";
  const contract =
    contractAccount !== undefined
      ? { accountId: contractAccount, shardkitOnly: false }
      : isShardkit
        ? { accountId: SHARDKIT_CONTRACT, shardkitOnly: true }
        : undefined;
  return {
    isShardkit,
    chainId: status.chain_id,
    finalHeight: block.header.height,
    finalHash: block.header.hash,
    epochId: block.header.epoch_id,
    accountId,
    publicKey: keys.keys[0]?.public_key,
    shardId: firstChunk.shard_id,
    chunkHash: firstChunk.chunk_hash,
    contract,
    transaction: await findTransaction(t, rpcUrl, block),
    earliestHeight: typeof status.sync_info?.earliest_block_height === "number" ? status.sync_info.earliest_block_height : undefined,
  };
}

async function findTransaction(t: CheckContext, rpcUrl: string, finalBlock: any): Promise<TargetFacts["transaction"]> {
  let block = finalBlock;
  for (let i = 0; i < TRANSACTION_SEARCH_BLOCKS; i++) {
    for (const chunk of block.chunks as { chunk_hash: string; tx_root: string }[]) {
      if (/^1+$/.test(chunk.tx_root)) continue; // empty transaction root: no transactions
      const body = await t.rpcResult(rpcUrl, "chunk", { chunk_id: chunk.chunk_hash });
      const tx = body.transactions[0];
      if (tx === undefined) continue;
      const status = await t.rpcResult(rpcUrl, "tx", { tx_hash: tx.hash, sender_account_id: tx.signer_id, wait_until: "NONE" });
      const receiptId: string | undefined = status.transaction_outcome?.outcome?.receipt_ids?.[0];
      return { hash: tx.hash, signerId: tx.signer_id, receiptId };
    }
    if (block.header.height <= 1 || block.header.prev_hash === undefined) break;
    const previous = await t.rpc(rpcUrl, "block", { block_id: block.header.prev_hash });
    if (previous.envelope.error !== undefined) break; // garbage collected or genesis
    block = previous.envelope.result;
  }
  return undefined;
}
