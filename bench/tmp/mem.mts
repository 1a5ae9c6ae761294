import { Chain } from "../../src/chain/node.js";
import { BlockIndexer } from "../../src/indexer/BlockIndexer.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { rmSync, readFileSync } from "node:fs";
const dir = "/tmp/m/mem"; rmSync(dir, { recursive: true, force: true });
const anon = () => Number(/RssAnon:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
const chain = await Chain.open({ dataDir: dir, blockTimeMs: 0, genesisTimeMs: Date.UTC(2025,0,1) });
if (process.argv.includes("--indexer")) new BlockIndexer(chain, new MemoryIndexStore()).start();
const tick = () => new Promise((r) => setImmediate(r));
for (let round = 0; round < 6; round++) {
  for (let i = 0; i < 4000; i += 64) { chain.withOneFlush(() => { for (let j = 0; j < 64; j++) chain.produceBlock(); }); await tick(); }
  for (let k = 0; k < 20; k++) await tick();
  (globalThis as any).gc?.();
  console.log(chain.head().height, "anon", anon().toFixed(1), "heap", (process.memoryUsage().heapUsed / 2 ** 20).toFixed(1));
}
await chain.close();
