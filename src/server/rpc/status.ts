import type { StatusParams, StatusResult } from "../../../generated/rpc/types.js";
import { earliestAvailableHeight } from "./blockReference.js";
import type { Block, RpcContext } from "./context.js";
import { nodeVersion } from "./nodeVersion.js";

/** `status`: chain id, protocol version, head and the window of blocks this listener serves. */
export function status(_params: StatusParams, ctx: RpcContext): StatusResult {
  const { chain } = ctx;
  const head = chain.head();
  const earliest = chain.blockByHeight(earliestAvailableHeight(ctx)) ?? chain.genesisBlock;
  const producer = chain.blockProducer;
  return {
    version: nodeVersion(),
    chain_id: chain.chainId,
    protocol_version: chain.protocolVersion,
    latest_protocol_version: chain.protocolVersion,
    rpc_addr: ctx.rpcAddr,
    validators: [{ account_id: producer.accountId }],
    sync_info: {
      latest_block_hash: head.hash,
      latest_block_height: head.height,
      latest_state_root: head.view.header.prev_state_root,
      latest_block_time: rfc3339(head),
      syncing: false,
      earliest_block_hash: earliest.hash,
      earliest_block_height: earliest.height,
      earliest_block_time: rfc3339(earliest),
      epoch_id: head.view.header.epoch_id,
      epoch_start_height: chain.epochStartHeight(head),
    },
    validator_account_id: producer.accountId,
    validator_public_key: producer.publicKey,
    node_public_key: producer.publicKey,
    node_key: producer.publicKey,
    uptime_sec: Math.floor((Date.now() - ctx.startedAtMs) / 1000),
    genesis_hash: chain.genesisBlock.hash,
  };
}

/** A block's timestamp as RFC 3339 with nanoseconds, the way nearcore prints it. */
function rfc3339(block: Block): string {
  const ns = BigInt(block.view.header.timestamp_nanosec);
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, "0");
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}
