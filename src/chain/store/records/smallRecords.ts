import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { RecordKind, readSafeU64, type RecordCodec } from "./recordEnvelope.js";

/** The data dir's format header (layout version 1): format u32 ‖ software String. */
export interface FormatHeader {
  readonly format: number;
  readonly software: "shardkit";
}

export const formatHeaderCodec: RecordCodec<FormatHeader> = {
  kind: RecordKind.FORMAT,
  version: 1,
  write(w, h) {
    w.u32(h.format).string(h.software);
  },
  read(r) {
    const format = r.u32();
    const software = r.string();
    if (software !== "shardkit") throw new RangeError(`written by ${JSON.stringify(software)}`);
    return { format, software };
  },
  isFormat3: (v): v is FormatHeader => isJsonObject(v) && Number.isSafeInteger(v.format) && v.software === "shardkit",
};

/** A height (the head, an index entry), layout version 1: u64. */
export const heightCodec: RecordCodec<number> = {
  kind: RecordKind.HEIGHT,
  version: 1,
  write(w, height) {
    w.u64(height);
  },
  read: readSafeU64,
  isFormat3: (v): v is number => Number.isSafeInteger(v),
};
