import type { GenesisLoadProgress } from "../chain/node.js";

const count = (n: number) => n.toLocaleString("en-US");

/** What a genesis load is doing, for the progress line: "reading records, 42% (4,200,000)". */
export function genesisProgressLabel(progress: GenesisLoadProgress): string {
  switch (progress.phase) {
    case "records": {
      const percent = progress.totalBytes > 0 ? `${Math.floor((100 * progress.bytesRead) / progress.totalBytes)}%` : `${count(progress.bytesRead)} bytes`;
      return `reading records, ${percent} (${count(progress.records)})`;
    }
    case "tries":
      return `building the tries, ${count(progress.entries)} of ${count(progress.totalEntries)} entries`;
    case "nodes":
      return `writing trie nodes, ${progress.buckets} of 256 buckets (${count(progress.nodes)} nodes)`;
  }
}
