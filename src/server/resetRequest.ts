import { resolveForkPoint, type Chain, type ChainOptions, type ForkOptions } from "../chain/node.js";
import { ParseError } from "./errors.js";
import type { Block } from "./rpc/context.js";

/** What `shardkit_reset` asks for: no fork (`forkUrl: null`), another one, or the same start again. */
export interface ResetRequest {
  readonly forkUrl?: string | null | undefined;
  readonly forkBlock?: number | string | undefined;
}

/** The new chain's head and the fork it follows. */
export interface ResetOutcome {
  readonly head: Block;
  readonly fork: { readonly url: string; readonly block_height: number; readonly block_hash: string } | null;
}

/**
 * The fork the chain after a reset follows, its block already asked for (so an upstream that
 * cannot answer fails the reset before anything is thrown away): the request's upstream and
 * block; the current fork's upstream at another block; or, with neither, the block the
 * current chain forked at. The serve options' API key and rate cap carry over.
 */
export async function forkOfReset(current: Chain, served: ChainOptions, request: ResetRequest): Promise<ForkOptions | undefined> {
  if (request.forkUrl === null) {
    if (request.forkBlock !== undefined) throw new ParseError("fork_block needs a fork: fork_url is null");
    return undefined;
  }
  const settings = { apiKey: served.fork?.apiKey ?? current.forkApiKey, requestsPerSecond: served.fork?.requestsPerSecond };
  let fork: ForkOptions;
  if (request.forkUrl !== undefined) {
    fork = { ...settings, url: request.forkUrl, block: request.forkBlock };
  } else if (current.fork !== undefined) {
    const { url, archivalUrl, blockHash } = current.fork;
    fork = { ...settings, url, archivalUrl, block: request.forkBlock ?? blockHash };
  } else if (request.forkBlock !== undefined) {
    throw new ParseError("fork_block needs a fork: this chain is none, give fork_url");
  } else {
    return undefined;
  }
  return { ...fork, at: await resolveForkPoint(fork) };
}
