import type { NetworkInfoParams, NetworkInfoResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";

/** nearcore's default `network.max_num_peers`. */
const PEER_MAX_COUNT = 40;

/** `network_info`: a shardkit node is alone on its network (no peers, no traffic). */
export function networkInfo(_params: NetworkInfoParams, _ctx: RpcContext): NetworkInfoResult {
  const activePeers: NetworkInfoResult["active_peers"] = [];
  return {
    active_peers: activePeers,
    num_active_peers: activePeers.length,
    peer_max_count: PEER_MAX_COUNT,
    sent_bytes_per_sec: 0,
    received_bytes_per_sec: 0,
    known_producers: [],
  };
}
