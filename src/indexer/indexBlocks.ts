import type { BlockSource } from "./BlockSource.js";
import type { IndexBuilder } from "./IndexBuilder.js";
import type { IndexStore } from "./IndexStore.js";

/**
 * Indexes what `store` lacks from `source`, block by block, up to `toHeight` (default: the
 * source's head): the loop under every follower, for any source and any store, without the
 * followers' scheduling (BlockIndexer yields to requests; UpstreamFollower polls, retries and
 * commits its own state with each block). Heights without a block are skipped.
 */
export async function indexBlocks(source: BlockSource, builder: IndexBuilder, store: IndexStore, toHeight?: number): Promise<void> {
  const last = toHeight ?? (await source.headHeight());
  for (let height = store.height === null ? await source.genesisHeight() : store.height + 1; height <= last; height++) {
    const input = await source.block(height);
    if (input !== undefined) await store.apply(await builder.update(input));
  }
}
