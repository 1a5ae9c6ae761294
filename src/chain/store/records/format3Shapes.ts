import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import type { StoredBlock, StoredGenesis } from "../ChainStore.js";

/*
 * Format-3 data dirs stored V8-serialised objects, so their records come back as `unknown`: these
 * checks decide whether one has the shape of today's record before a reader relies on it. They
 * go as deep as the fields a reader takes apart (arrays of hashes, strings, byte strings); the
 * caused changes and chunk results of a block are checked as objects, not field by field.
 */

const isString = (v: unknown): v is string => typeof v === "string";
const isBigInt = (v: unknown): v is bigint => typeof v === "bigint";
const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;
const isSafeInteger = (v: unknown): v is number => Number.isSafeInteger(v);
const isOptional = <T>(v: unknown, check: (v: unknown) => v is T): v is T | undefined => v === undefined || check(v);

function isArrayOf<T>(v: unknown, check: (v: unknown) => v is T): v is readonly T[] {
  return Array.isArray(v) && v.every((item) => check(item));
}

function isGenesisConfig(v: unknown): v is StoredGenesis["config"] {
  return (
    isJsonObject(v) &&
    isString(v.chainId) &&
    isBigInt(v.genesisTimeNs) &&
    isSafeInteger(v.genesisHeight) &&
    isSafeInteger(v.protocolVersion) &&
    isBigInt(v.gasPrice) &&
    isSafeInteger(v.gasLimit) &&
    isSafeInteger(v.epochLength) &&
    v.shardLayout === undefined &&
    isOptional(v.blockProducer, isString)
  );
}

function isLayout(v: unknown): v is StoredGenesis["layout"] {
  return isJsonObject(v) && isArrayOf(v.boundaryAccounts, isString) && (v.routing === "boundaries" || v.routing === "hash") && isArrayOf(v.shardIds, isSafeInteger);
}

function isShardEntries(v: unknown): v is StoredGenesis["shards"][number] {
  return isJsonObject(v) && isArrayOf(v.keys, isString) && isArrayOf(v.values, isString);
}

function isForkPoint(v: unknown): v is NonNullable<StoredGenesis["fork"]> {
  return (
    isJsonObject(v) &&
    isString(v.url) &&
    isOptional(v.archivalUrl, isString) &&
    isString(v.blockHash) &&
    isSafeInteger(v.height) &&
    isString(v.prevHash) &&
    isBigInt(v.timestampNs) &&
    isString(v.chainId)
  );
}

export function isFormat3Genesis(v: unknown): v is StoredGenesis {
  return (
    isJsonObject(v) &&
    isGenesisConfig(v.config) &&
    isLayout(v.layout) &&
    isString(v.author) &&
    typeof v.devGenesis === "boolean" &&
    isArrayOf(v.shards, isShardEntries) &&
    isOptional(v.stateRoots, (roots): roots is readonly Uint8Array[] => isArrayOf(roots, isBytes)) &&
    isBigInt(v.totalSupply) &&
    isString(v.genesisHash) &&
    isOptional(v.fork, isForkPoint)
  );
}

const isObject = (v: unknown): v is object => isJsonObject(v);

function isSortedChanges(v: unknown): v is StoredBlock["stateChanges"][number] {
  return isJsonObject(v) && isArrayOf(v.keys, isString) && isArrayOf(v.values, (value): value is string | null => value === null || isString(value));
}

function isProposal(v: unknown): v is readonly [string, bigint] {
  return Array.isArray(v) && v.length === 2 && isString(v[0]) && isBigInt(v[1]);
}

function isSignatures(v: unknown): v is StoredBlock["signatures"] {
  return isJsonObject(v) && isBytes(v.approval) && isBytes(v.block) && isArrayOf(v.chunks, isBytes);
}

export function isFormat3Block(v: unknown): v is StoredBlock {
  return (
    isJsonObject(v) &&
    isSafeInteger(v.height) &&
    isString(v.hash) &&
    isBigInt(v.timestampNs) &&
    isArrayOf(v.stateChanges, isSortedChanges) &&
    isArrayOf(v.causedChanges, (shard): shard is readonly object[] => isArrayOf(shard, isObject)) &&
    isArrayOf(v.chunkResults, isObject) &&
    isArrayOf(v.stateRoots, isBytes) &&
    isBigInt(v.totalSupply) &&
    isArrayOf(v.outcomeRoots, isBytes) &&
    isArrayOf(v.chunkHashes, isString) &&
    isArrayOf(v.epochProposals, isProposal) &&
    isSignatures(v.signatures)
  );
}
