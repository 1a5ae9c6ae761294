import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import type { BorshReader } from "@shardkit/primitives/borshReader";
import type { BorshWriter } from "@shardkit/primitives/borshWriter";
import type { ForkPoint } from "../../fork/ForkPoint.js";
import type { StoredGenesis } from "../ChainStore.js";
import { isFormat3Genesis } from "./format3Shapes.js";
import { RecordKind, readLatin1, readOption, readSafeU64, readVec, writeLatin1, writeOption, writeVec, type RecordCodec } from "./recordEnvelope.js";

/*
 * The genesis record, layout version 1:
 *   config { chain_id String, genesis_time_ns u64, genesis_height u64, protocol_version u32,
 *            gas_price u128, gas_limit u64, epoch_length u64, block_producer Option<String> }
 *   ‖ layout { boundary_accounts Vec<String>, routing u8 (0 boundaries, 1 hash), shard_ids Vec<u64> }
 *   ‖ author String ‖ dev_genesis bool
 *   ‖ shards Vec<{ keys Vec<Vec<u8>>, values Vec<Vec<u8>> }> ‖ state_roots Option<Vec<[32]>>
 *   ‖ total_supply u128 ‖ genesis_hash [32]
 *   ‖ fork Option<{ url String, archival_url Option<String>, block_hash [32], height u64,
 *                   prev_hash [32], timestamp_ns u64, chain_id String }>
 * (The config's shard layout is the record's `layout`; the decoded config carries none.)
 */

const ROUTING = ["boundaries", "hash"] as const;

function writeFork(w: BorshWriter, f: ForkPoint): void {
  w.string(f.url);
  writeOption(w, f.archivalUrl, (w, url) => w.string(url));
  w.fixed(base58Decode(f.blockHash)).u64(f.height).fixed(base58Decode(f.prevHash)).u64(f.timestampNs).string(f.chainId);
}

function readFork(r: BorshReader): ForkPoint {
  const url = r.string();
  const archivalUrl = readOption(r, (r) => r.string());
  return {
    url,
    ...(archivalUrl !== undefined && { archivalUrl }),
    blockHash: base58Encode(r.fixed(32)),
    height: readSafeU64(r),
    prevHash: base58Encode(r.fixed(32)),
    timestampNs: r.u64(),
    chainId: r.string(),
  };
}

export const storedGenesisCodec: RecordCodec<StoredGenesis> = {
  kind: RecordKind.GENESIS,
  version: 1,
  write(w, g) {
    const c = g.config;
    w.string(c.chainId).u64(c.genesisTimeNs).u64(c.genesisHeight).u32(c.protocolVersion).u128(c.gasPrice).u64(c.gasLimit).u64(c.epochLength);
    writeOption(w, c.blockProducer, (w, id) => w.string(id));
    writeVec(w, g.layout.boundaryAccounts, (w, id) => w.string(id));
    w.u8(ROUTING.indexOf(g.layout.routing));
    writeVec(w, g.layout.shardIds, (w, id) => w.u64(id));
    w.string(g.author).bool(g.devGenesis);
    writeVec(w, g.shards, (w, shard) => {
      writeVec(w, shard.keys, writeLatin1);
      writeVec(w, shard.values, writeLatin1);
    });
    writeOption(w, g.stateRoots, (w, roots) => writeVec(w, roots, (w, root) => w.fixed(root)));
    w.u128(g.totalSupply).fixed(base58Decode(g.genesisHash));
    writeOption(w, g.fork, writeFork);
  },
  read(r) {
    const config = {
      chainId: r.string(),
      genesisTimeNs: r.u64(),
      genesisHeight: readSafeU64(r),
      protocolVersion: r.u32(),
      gasPrice: r.u128(),
      gasLimit: readSafeU64(r),
      epochLength: readSafeU64(r),
      blockProducer: readOption(r, (r) => r.string()),
      shardLayout: undefined,
    };
    const boundaryAccounts = readVec(r, (r) => r.string());
    const routing = ROUTING[r.u8()];
    if (routing === undefined) throw new RangeError("unknown shard routing");
    const shardIds = readVec(r, readSafeU64);
    const author = r.string();
    const devGenesis = r.bool();
    const shards = readVec(r, (r) => ({ keys: readVec(r, readLatin1), values: readVec(r, readLatin1) }));
    const stateRoots = readOption(r, (r) => readVec(r, (r) => r.fixed(32)));
    const totalSupply = r.u128();
    const genesisHash = base58Encode(r.fixed(32));
    const fork = readOption(r, readFork);
    return {
      config,
      layout: { boundaryAccounts, routing, shardIds },
      author,
      devGenesis,
      shards,
      ...(stateRoots !== undefined && { stateRoots }),
      totalSupply,
      genesisHash,
      ...(fork !== undefined && { fork }),
    };
  },
  isFormat3: isFormat3Genesis,
};
