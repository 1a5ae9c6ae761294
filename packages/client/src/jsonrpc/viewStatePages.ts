import type { RpcClient } from "../generated/rpc/client.js";
import type { AccountId, BlockReference, StoreKey, ViewStateResult } from "../generated/rpc/types.js";

/** What to page through: a contract's storage under a key prefix, from a block. */
export type ViewStatePagesParams = BlockReference & {
  account_id: AccountId;
  /** Key prefix in base64; `""` for every key. */
  prefix_base64: StoreKey;
  /** Entries per page (the node clamps it to 10 000 and about 50 000 bytes). Default 1000. */
  limit?: number;
  /** Start after this key (exclusive; must start with the prefix), e.g. a saved `last_key`. */
  after_key_base64?: StoreKey;
};

const DEFAULT_PAGE_LIMIT = 1000;

/**
 * Pages of a paginated `view_state`, in raw key-byte order: each request passes the previous
 * page's `last_key` as `after_key_base64`, until a page comes without `last_key`. Every page
 * after the first is read at the first page's block (`block_id: block_hash`), so the pages
 * concatenate to one consistent snapshot even while blocks are produced.
 *
 * @example
 * for await (const page of viewStatePages(rpc, { finality: "final", account_id: "kv.test.near", prefix_base64: "" })) {
 *   for (const { key, value } of page.values) console.log(key, value);
 * }
 */
export async function* viewStatePages(
  rpc: Pick<RpcClient, "query">,
  params: ViewStatePagesParams,
): AsyncGenerator<ViewStateResult, void, undefined> {
  const { account_id, prefix_base64 } = params;
  const limit = params.limit ?? DEFAULT_PAGE_LIMIT;
  let reference: BlockReference =
    params.finality !== undefined
      ? { finality: params.finality }
      : params.block_id !== undefined
        ? { block_id: params.block_id }
        : { sync_checkpoint: params.sync_checkpoint! };
  let after: StoreKey | undefined = params.after_key_base64;
  for (;;) {
    const page = await rpc.query({
      ...reference,
      request_type: "view_state",
      account_id,
      prefix_base64,
      limit,
      ...(after === undefined ? {} : { after_key_base64: after }),
    });
    yield page;
    if (page.last_key === undefined) return;
    if (page.last_key === after) throw new Error(`view_state paging made no progress at key ${after}`);
    after = page.last_key;
    reference = { block_id: page.block_hash };
  }
}
