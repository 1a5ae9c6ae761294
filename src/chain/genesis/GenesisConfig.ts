import { ShardLayout } from "../shards/ShardLayout.js";
import { GenesisError } from "./GenesisError.js";
import { MAX_SUPPORTED_PROTOCOL_VERSION } from "../runtime/protocolFeature.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { errorMessage } from "@shardkit/primitives/errorMessage";

/** The chain-level genesis settings shardkit honours (nearcore genesis field names in docs). */
export interface GenesisConfig {
  /** `chain_id` */
  readonly chainId: string;
  /** `genesis_time` as Unix nanoseconds. */
  readonly genesisTimeNs: bigint;
  /** `genesis_height` */
  readonly genesisHeight: number;
  /** `protocol_version` */
  readonly protocolVersion: number;
  /** `min_gas_price` (or `gas_price`), yoctoNEAR per gas. */
  readonly gasPrice: bigint;
  /** `gas_limit` per chunk. */
  readonly gasLimit: number;
  /** `epoch_length` in blocks. */
  readonly epochLength: number;
  /** `shard_layout` when the file has one. */
  readonly shardLayout: ShardLayout | undefined;
  /** `validators[0].account_id`: the block producer (author). */
  readonly blockProducer: string | undefined;
}

export const DEFAULT_CHAIN_ID = "localnet";
/**
 * The protocol of nearcore's latest release, 2.13 (2.13.0 to 2.13.4): `STABLE_PROTOCOL_VERSION = 86`
 * (near/nearcore protocol-model/spec/protocol-versioning.md, "Release: 2.13.0", commit 499283a).
 * Its one feature beyond 85, EnforcePerReceiptStorageProofLimit, bounds the trie proof a receipt
 * records; shardkit records none (see `protocol-86-features-missing` in specs/nearcore-differences.yaml).
 * 2.14's 87 was a release candidate only when this was set.
 */
export const DEFAULT_PROTOCOL_VERSION = 86;
export const DEFAULT_GAS_PRICE = 100_000_000n;
export const DEFAULT_GAS_LIMIT = 1_000_000_000_000_000;
export const DEFAULT_EPOCH_LENGTH = 43_200;

/** Defaults for a chain without a genesis file. */
export function defaultGenesisConfig(nowMs: number, chainId = DEFAULT_CHAIN_ID): GenesisConfig {
  return {
    chainId,
    genesisTimeNs: BigInt(nowMs) * 1_000_000n,
    genesisHeight: 0,
    protocolVersion: DEFAULT_PROTOCOL_VERSION,
    gasPrice: DEFAULT_GAS_PRICE,
    gasLimit: DEFAULT_GAS_LIMIT,
    epochLength: DEFAULT_EPOCH_LENGTH,
    shardLayout: undefined,
    blockProducer: undefined,
  };
}

/** A genesis at a protocol newer than shardkit runs is refused: its rules are not known here. */
function protocolVersionOf(version: number): number {
  if (version > MAX_SUPPORTED_PROTOCOL_VERSION) {
    throw new GenesisError(`genesis protocol_version ${version} is newer than shardkit runs (at most ${MAX_SUPPORTED_PROTOCOL_VERSION})`);
  }
  return version;
}

/** Parses RFC 3339 time (nearcore writes e.g. "2020-07-31T03:39:42.911378Z") to Unix ns. */
export function parseGenesisTime(text: string): bigint {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  const ms = m === null ? NaN : Date.parse(`${m[1]}${m[3]}`);
  if (m === null || Number.isNaN(ms)) throw new GenesisError(`genesis_time ${JSON.stringify(text)} is not an RFC 3339 time`);
  const fraction = (m[2] ?? "").padEnd(9, "0");
  return BigInt(ms) * 1_000_000n + BigInt(fraction);
}

/** Builds the config from the top-level fields of a genesis file (unknown fields ignored). */
export function parseGenesisConfig(fields: ReadonlyMap<string, unknown>, nowMs: number): GenesisConfig {
  const base = defaultGenesisConfig(nowMs);
  const int = (name: string, fallback: number, min: number): number => {
    const v = fields.get(name);
    if (v === undefined) return fallback;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) {
      throw new GenesisError(`genesis field ${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    }
    return v;
  };
  const chainId = fields.get("chain_id") ?? base.chainId;
  if (typeof chainId !== "string" || chainId === "") throw new GenesisError("genesis field chain_id must be a non-empty string");
  const time = fields.get("genesis_time");
  if (time !== undefined && typeof time !== "string") throw new GenesisError("genesis field genesis_time must be a string");
  const price = fields.get("min_gas_price") ?? fields.get("gas_price");
  let gasPrice = base.gasPrice;
  if (price !== undefined) {
    if ((typeof price !== "string" || !/^[0-9]+$/.test(price)) && !(typeof price === "number" && Number.isSafeInteger(price) && price >= 0)) {
      throw new GenesisError(`genesis field min_gas_price must be a decimal string, got ${JSON.stringify(price)}`);
    }
    gasPrice = BigInt(price);
  }
  return {
    chainId,
    genesisTimeNs: time === undefined ? base.genesisTimeNs : parseGenesisTime(time),
    genesisHeight: int("genesis_height", 0, 0),
    protocolVersion: protocolVersionOf(int("protocol_version", base.protocolVersion, 1)),
    gasPrice,
    gasLimit: int("gas_limit", base.gasLimit, 1),
    epochLength: int("epoch_length", base.epochLength, 1),
    shardLayout: parseShardLayout(fields.get("shard_layout")),
    blockProducer: firstValidator(fields.get("validators")),
  };
}

/**
 * nearcore `shard_layout`: {"V0":{"num_shards":n}} routes by hash; {"V1"|"V2"|"V3":
 * {"boundary_accounts":[...], "shard_ids"?:[...]}} by boundary accounts.
 */
export function parseShardLayout(v: unknown): ShardLayout | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isJsonObject(v)) throw new GenesisError("genesis field shard_layout must be an object");
  const entries = Object.entries(v);
  const [version, b] = entries[0] ?? [];
  if (entries.length !== 1 || !isJsonObject(b)) {
    throw new GenesisError("genesis field shard_layout must be {\"V<n>\": {...}}");
  }
  try {
    if (version === "V0") {
      const n = b["num_shards"];
      if (typeof n !== "number") throw new GenesisError("shard_layout.V0.num_shards must be a number");
      return ShardLayout.hashed(n);
    }
    const boundaries = b["boundary_accounts"];
    if (!Array.isArray(boundaries) || !boundaries.every((x): x is string => typeof x === "string")) {
      throw new GenesisError(`shard_layout.${version}.boundary_accounts must be an array of account ids`);
    }
    const ids = b["shard_ids"];
    if (ids !== undefined && (!Array.isArray(ids) || !ids.every((x): x is number => typeof x === "number"))) {
      throw new GenesisError(`shard_layout.${version}.shard_ids must be an array of numbers`);
    }
    return ShardLayout.fromBoundaries(boundaries, ids);
  } catch (e) {
    if (e instanceof GenesisError) throw e;
    throw new GenesisError(`genesis field shard_layout: ${errorMessage(e)}`);
  }
}

function firstValidator(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const first: unknown = v[0];
  return isJsonObject(first) && typeof first.account_id === "string" ? first.account_id : undefined;
}
