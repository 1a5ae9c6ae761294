import { open } from "node:fs/promises";
import type { Block } from "../blocks/Block.js";
import { decodeAccessKey } from "@shardkit/primitives/accessKey";
import { decodeAccount } from "../primitives/account.js";
import { formatCryptoHash } from "../primitives/cryptoHash.js";
import { formatPublicKey, publicKeyFromBorsh } from "@shardkit/primitives/publicKey";
import { ML_DSA_65_HASH_TAG } from "@shardkit/primitives/publicKeyHandle";
import { isGasKeyNonceTail } from "../runtime/runtimeTrieKeys.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import { permissionJson } from "../transaction/actionJson.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { TrieKeyColumn } from "../store/trieKeys.js";
import type { GenesisConfig } from "./GenesisConfig.js";

/** What a dump reads of the chain (a `Chain` is one). */
export interface DumpedChain {
  readonly config: GenesisConfig;
  readonly shardLayout: ShardLayout;
  readonly blockProducer: { readonly accountId: string; readonly publicKey: string };
  at(block: Block): { shard(shardId: number): StateSnapshot };
}

/** Records written per batch (and per trie walk: the walk resumes after the last key). */
const BATCH = 10_000;

/** What a dump wrote. */
export interface DumpSummary {
  readonly records: number;
  /** Trie entries that have no genesis record kind (receipts in flight, the delayed queue). */
  readonly skipped: number;
}

/** Unix ns → RFC 3339 with nanoseconds (nearcore's genesis_time form). */
function formatGenesisTime(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString().slice(0, 19);
  return `${iso}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}Z`;
}

const b64 = (latin1: string): string => Buffer.from(latin1, "latin1").toString("base64");

/** The account id and the rest of a per-account trie key (`column ‖ account_id [‖ ',' ‖ tail]`). */
function splitKey(key: string): { accountId: string; tail: string } {
  const comma = key.indexOf(",", 1);
  return comma < 0 ? { accountId: key.slice(1), tail: "" } : { accountId: key.slice(1, comma), tail: key.slice(comma + 1) };
}

/** One trie entry as a nearcore genesis record (JSON text), or undefined when it has no record kind. */
function recordOf(key: string, value: string): string | undefined {
  const column = key.charCodeAt(0);
  const { accountId, tail } = splitKey(key);
  switch (column) {
    case TrieKeyColumn.ACCOUNT: {
      const a = decodeAccount(Buffer.from(value, "latin1"));
      const account = { amount: a.amount.toString(), locked: a.locked.toString(), code_hash: formatCryptoHash(a.codeHash), storage_usage: a.storageUsage };
      return JSON.stringify({ Account: { account_id: accountId, account } });
    }
    case TrieKeyColumn.CONTRACT_CODE:
      return JSON.stringify({ Contract: { account_id: accountId, code: b64(value) } });
    case TrieKeyColumn.ACCESS_KEY: {
      // An ML-DSA-65 key is stored by its digest, which a genesis record (a full PublicKey)
      // cannot name; nearcore's genesis tools cannot carry such keys either.
      if (tail.charCodeAt(0) === ML_DSA_65_HASH_TAG) return undefined;
      // A gas key's nonce rows have no record kind (genesis gas keys start at nonce 0).
      if (isGasKeyNonceTail(tail)) return undefined;
      const publicKey = formatPublicKey(publicKeyFromBorsh(Buffer.from(tail, "latin1")).key);
      const k = decodeAccessKey(Buffer.from(value, "latin1"));
      const permission = permissionJson(k.permission);
      return JSON.stringify({ AccessKey: { account_id: accountId, public_key: publicKey, access_key: { nonce: Number(k.nonce), permission } } });
    }
    case TrieKeyColumn.CONTRACT_DATA:
      return JSON.stringify({ Data: { account_id: accountId, data_key: b64(tail), value: b64(value) } });
    default:
      return undefined;
  }
}

/**
 * Writes the state after `block` as a nearcore genesis file (config fields, then `records`),
 * streamed: the trie is walked in batches and each batch is written before the next is read,
 * so memory stays bounded by one batch whatever the state size. The layout, chain id,
 * protocol version, gas price and limit and epoch length are the chain's; `genesis_height`
 * is the block's height + 1 and `genesis_time` its timestamp, so a chain started from the
 * dump continues after it. Only Account, AccessKey, Contract and Data entries have record
 * kinds the loader reads; others (receipts in flight) are counted in `skipped`.
 */
export async function dumpGenesis(chain: DumpedChain, block: Block, path: string): Promise<DumpSummary> {
  const config = chain.config;
  const layout = chain.shardLayout;
  const shardLayout =
    layout.routing === "hash"
      ? { V0: { num_shards: layout.numShards, version: 0 } }
      : { V2: { boundary_accounts: layout.boundaryAccounts, shard_ids: layout.shardIds, version: 3 } };
  const header = {
    chain_id: config.chainId,
    genesis_time: formatGenesisTime(block.timestampNs),
    genesis_height: block.height + 1,
    protocol_version: config.protocolVersion,
    min_gas_price: config.gasPrice.toString(),
    gas_limit: config.gasLimit,
    epoch_length: config.epochLength,
    total_supply: block.totalSupply.toString(),
    shard_layout: shardLayout,
    validators: [{ account_id: chain.blockProducer.accountId, public_key: chain.blockProducer.publicKey, amount: "0" }],
  };
  const file = await open(path, "w");
  let records = 0;
  let skipped = 0;
  try {
    const head = JSON.stringify(header, null, 2);
    await file.write(`${head.slice(0, head.length - 2)},\n  "records": [`);
    for (const shardId of layout.shardIds) {
      const state = chain.at(block).shard(shardId);
      let after: string | undefined;
      for (;;) {
        const lines: string[] = [];
        let last: string | undefined;
        state.scan("", after, (key, value) => {
          last = key;
          const record = recordOf(key, value);
          if (record === undefined) skipped++;
          else lines.push(`${records++ === 0 ? "" : ","}\n    ${record}`);
          return lines.length < BATCH;
        });
        if (lines.length > 0) await file.write(lines.join(""));
        if (last === undefined || lines.length < BATCH) break;
        after = last;
      }
    }
    await file.write("\n  ]\n}\n");
  } finally {
    await file.close();
  }
  return { records, skipped };
}
