import { stat } from "node:fs/promises";
import type { ShardLayout } from "../shards/ShardLayout.js";
import { DiskStateStore } from "../store/DiskStateStore.js";
import type { StateStore } from "../store/stateStore.js";
import { DataRecordReader } from "./dataRecordBytes.js";
import { parseGenesisConfig, type GenesisConfig } from "./GenesisConfig.js";
import { GenesisStateBuilder, type GenesisState } from "./GenesisStateBuilder.js";
import { scanGenesisFile } from "./scanGenesisFile.js";
import { parseStateRecord } from "./stateRecord.js";
import { StreamedGenesisBuilder } from "./StreamedGenesisBuilder.js";

export interface LoadedGenesis {
  readonly config: GenesisConfig;
  readonly layout: ShardLayout;
  /** With `roots`, the entries are left out (the tries are already in the store). */
  readonly state: GenesisState;
  /** Root of each shard's trie when it was loaded straight into the state store. */
  readonly roots: Uint8Array[] | undefined;
  /** Author when the file names no validator: the first Account record's id. */
  readonly firstAccountId: string | undefined;
}

/** How far a genesis load has come: reading the records, then (streamed into an on-disk store) building the tries and writing their nodes. */
export type GenesisLoadProgress =
  | { readonly phase: "records"; readonly bytesRead: number; readonly totalBytes: number; readonly records: number }
  | { readonly phase: "tries"; readonly entries: number; readonly totalEntries: number }
  | { readonly phase: "nodes"; readonly buckets: number; readonly nodes: number };

/**
 * Files from this size on are streamed into an on-disk store; smaller ones are built in memory
 * (a few MB of heap, briefly), which spares the start of the two sort worker threads: 100-450 ms
 * of a sandbox's start-up for its genesis of 2 KB.
 */
export const STREAM_GENESIS_FROM_BYTES = 1024 * 1024;

export interface GenesisLoadOptions {
  /** Called after every 1 MiB of the file, every 500,000 trie entries and every 16 of the 256 node buckets. */
  readonly onProgress?: (progress: GenesisLoadProgress) => void;
  /** Size from which a file is streamed into an on-disk store (default STREAM_GENESIS_FROM_BYTES; tests stream small files with 0). */
  readonly streamFromBytes?: number;
  /** Sizes of the streamed load's buffers (tests make them small to exercise spilling). */
  readonly runBytes?: number;
  readonly bucketMemory?: number;
}

/**
 * Loads a nearcore-format genesis file by streaming it (see scanGenesisFile). `layoutFor`
 * picks the shard layout once the file's own `shard_layout` (if any) is known.
 *
 * Given an on-disk state store and a file of at least `streamFromBytes`, the tries are built
 * into the store here, in bounded memory (external sort of the entries, streamed trie build,
 * nodes written in hash order; see StreamedGenesisBuilder) and only their roots come back.
 * Otherwise the sorted entries come back in memory for the store's `build`.
 */
export async function loadGenesisFile(
  path: string,
  layoutFor: (fileLayout: ShardLayout | undefined) => ShardLayout,
  nowMs = Date.now(),
  store?: StateStore,
  options: GenesisLoadOptions = {},
): Promise<LoadedGenesis> {
  const { onProgress } = options;
  const file = await stat(path);
  const totalBytes = file.size;
  // A pipe (size 0) may be any size: streamed.
  const streams = store instanceof DiskStateStore && (!file.isFile() || totalBytes >= (options.streamFromBytes ?? STREAM_GENESIS_FROM_BYTES));
  const bulk = streams ? store.bulkLoad(options.bucketMemory === undefined ? {} : { bucketMemory: options.bucketMemory }) : undefined;
  const streamed = bulk === undefined ? undefined : new StreamedGenesisBuilder(bulk, options.runBytes === undefined ? {} : { runBytes: options.runBytes });
  const builder = streamed ?? new GenesisStateBuilder();
  try {
    const fields = new Map<string, unknown>();
    let firstAccountId: string | undefined;
    const dataRecords = new DataRecordReader();
    let records = 0;
    await scanGenesisFile(path, {
      field: (name, value) => fields.set(name, value),
      chunkDone: (bytesRead) => {
        onProgress?.({ phase: "records", bytesRead, totalBytes, records });
        return streamed?.ready();
      },
      recordBytes: (index, bytes) => {
        records = index + 1;
        const record = dataRecords.read(bytes);
        if (record !== undefined) builder.add(record, index);
        return record !== undefined;
      },
      record: (index, value) => {
        records = index + 1;
        const record = parseStateRecord(value, index);
        if (firstAccountId === undefined && record.kind === "Account") firstAccountId = record.accountId;
        builder.add(record, index);
      },
    });
    const config = parseGenesisConfig(fields, nowMs);
    const layout = layoutFor(config.shardLayout);
    if (streamed === undefined) return { config, layout, state: builder.finish(layout), roots: undefined, firstAccountId };
    const { state, roots } = await streamed.load(layout, onProgress);
    return { config, layout, state, roots, firstAccountId };
  } catch (e) {
    await streamed?.abort();
    throw e;
  }
}
