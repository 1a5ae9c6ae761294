import type { ChainReader } from "../../chain/ChainReader.js";
import type { ShardLayout as ShardLayoutView } from "../../../generated/rpc/types.js";

/** The chain's shard layout as nearcore's `ShardLayout` JSON (V0 for hash routing, V2 for boundary accounts). */
export function shardLayoutView(chain: ChainReader): ShardLayoutView {
  const layout = chain.shardLayout;
  if (layout.routing === "hash") return { V0: { num_shards: layout.numShards, version: 0 } };
  const ids = layout.shardIds;
  return {
    V2: {
      boundary_accounts: [...layout.boundaryAccounts],
      shard_ids: [...ids],
      id_to_index_map: Object.fromEntries([...ids].sort((a, b) => a - b).map((id) => [String(id), ids.indexOf(id)])),
      index_to_id_map: Object.fromEntries(ids.map((id, index) => [String(index), id])),
      shards_split_map: null,
      shards_parent_map: null,
      version: 0,
    },
  };
}
