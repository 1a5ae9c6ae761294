import { open } from "node:fs/promises";
import { sha256 } from "../primitives/sha256.js";
import { devKeyPair } from "./devKey.js";
import { DEFAULT_PROTOCOL_VERSION } from "./GenesisConfig.js";

export interface SyntheticGenesisOptions {
  /** Number of contract data entries. */
  readonly keys: number;
  /** Contract account holding them (default "bench.test.near"). */
  readonly accountId?: string;
  /** Bytes per key (default 32) and per value (default 32). */
  readonly keyBytes?: number;
  readonly valueBytes?: number;
}

/**
 * Writes a nearcore-format genesis file with one funded contract account (plus the dev root
 * test.near) and `keys` Data records. Keys are sha256-derived, so they arrive unsorted and
 * spread over the whole key space: the loader's worst case. Written in chunks, so millions
 * of records never sit in memory as one string.
 */
export async function writeSyntheticGenesis(path: string, options: SyntheticGenesisOptions): Promise<void> {
  const accountId = options.accountId ?? "bench.test.near";
  const keyBytes = options.keyBytes ?? 32;
  const valueBytes = options.valueBytes ?? 32;
  if (keyBytes < 4 || keyBytes > 2048 || valueBytes < 0) throw new RangeError("bad key or value size");
  const file = await open(path, "w");
  try {
    const account = (id: string, amount: string) =>
      JSON.stringify({ Account: { account_id: id, account: { amount, locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 } } });
    const key = (id: string) =>
      JSON.stringify({ AccessKey: { account_id: id, public_key: devKeyPair(id).publicKeyString, access_key: { nonce: 0, permission: "FullAccess" } } });
    await file.write(
      `{\n  "chain_id": "shardkit-bench",\n  "genesis_time": "2025-01-01T00:00:00.000000Z",\n  "genesis_height": 0,\n` +
        `  "protocol_version": ${DEFAULT_PROTOCOL_VERSION},\n  "min_gas_price": "100000000",\n  "records": [\n` +
        `    ${account("test.near", "1000000000000000000000000000000000")},\n    ${key("test.near")},\n` +
        `    ${account(accountId, "1000000000000000000000000000")},\n    ${key(accountId)}`,
    );
    const counter = Buffer.alloc(4);
    let batch: string[] = [];
    for (let i = 0; i < options.keys; i++) {
      counter.writeUInt32BE(i);
      const digest = Buffer.from(sha256(counter));
      const k = Buffer.alloc(keyBytes);
      for (let off = 0; off < keyBytes; off += 32) digest.copy(k, off, 0, Math.min(32, keyBytes - off));
      k.writeUInt32BE(i, keyBytes - 4); // the counter in the tail keeps keys distinct
      const v = Buffer.alloc(valueBytes, digest[31]);
      batch.push(`,\n    {"Data":{"account_id":"${accountId}","data_key":"${k.toString("base64")}","value":"${v.toString("base64")}"}}`);
      if (batch.length === 10_000) {
        await file.write(batch.join(""));
        batch = [];
      }
    }
    await file.write(batch.join("") + "\n  ]\n}\n");
  } finally {
    await file.close();
  }
}
