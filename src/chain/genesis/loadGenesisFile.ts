import type { ShardLayout } from "../shards/ShardLayout.js";
import { parseGenesisConfig, type GenesisConfig } from "./GenesisConfig.js";
import { GenesisStateBuilder, type GenesisState } from "./GenesisStateBuilder.js";
import { scanGenesisFile } from "./scanGenesisFile.js";
import { parseStateRecord } from "./stateRecord.js";

export interface LoadedGenesis {
  readonly config: GenesisConfig;
  readonly layout: ShardLayout;
  readonly state: GenesisState;
  /** Author when the file names no validator: the first Account record's id. */
  readonly firstAccountId: string | undefined;
}

/**
 * Loads a nearcore-format genesis file by streaming it (see scanGenesisFile). `layoutFor`
 * picks the shard layout once the file's own `shard_layout` (if any) is known.
 */
export async function loadGenesisFile(
  path: string,
  layoutFor: (fileLayout: ShardLayout | undefined) => ShardLayout,
  nowMs = Date.now(),
): Promise<LoadedGenesis> {
  const fields = new Map<string, unknown>();
  const builder = new GenesisStateBuilder();
  let firstAccountId: string | undefined;
  await scanGenesisFile(path, {
    field: (name, value) => fields.set(name, value),
    record: (index, value) => {
      const record = parseStateRecord(value, index);
      if (firstAccountId === undefined && record.kind === "Account") firstAccountId = record.accountId;
      builder.add(record, index);
    },
  });
  const config = parseGenesisConfig(fields, nowMs);
  const layout = layoutFor(config.shardLayout);
  return { config, layout, state: builder.finish(layout), firstAccountId };
}
