// The memory and LMDB (data dir) REST index stores through the shared suite (indexStoreSuite.ts).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { LmdbIndexStore } from "../../src/indexer/LmdbIndexStore.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { indexStoreSuite } from "./indexStoreSuite.js";

const dirs: string[] = [];
const open: LmdbIndexStore[] = [];
afterAll(async () => {
  for (const store of open) await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function openLmdb(dir: string): LmdbIndexStore {
  const store = LmdbIndexStore.open(dir);
  open.push(store);
  return store;
}

indexStoreSuite([
  { name: "memory", open: async () => ({ store: new MemoryIndexStore() }) },
  {
    name: "lmdb",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "shardkit-rest-index-"));
      dirs.push(dir);
      const store = openLmdb(dir);
      return { store, reopen: async () => (await store.close(), open.splice(open.indexOf(store), 1), openLmdb(dir)) };
    },
  },
]);
