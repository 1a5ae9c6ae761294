/** Where a fork starts: the upstream and its block the local chain continues from. */
export interface ForkPoint {
  /** The upstream's JSON-RPC URL (state is read from it at the fork block). */
  readonly url: string;
  /** Where blocks and chunks at or below the fork height are read (default: `url`). */
  readonly archivalUrl?: string | undefined;
  /** base58 hash of the fork block (the parent of the first local block). */
  readonly blockHash: string;
  readonly height: number;
  /** base58 hash of the fork block's parent (the local genesis header's prev_hash). */
  readonly prevHash: string;
  /** The fork block's timestamp, Unix nanoseconds. */
  readonly timestampNs: bigint;
  /** The upstream's chain id (the fork keeps it, so signed transactions carry the same one). */
  readonly chainId: string;
  /**
   * The upstream's protocol version at the fork block (its header's latest_protocol_version), which
   * the fork runs when shardkit supports it. Only known when just resolved: a stored chain keeps
   * the version it runs in its genesis config.
   */
  readonly protocolVersion?: number;
}
