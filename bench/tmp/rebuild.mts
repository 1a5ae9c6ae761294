import { Chain } from "../../src/chain/node.js";
import { rmSync } from "node:fs";
const dir = "/tmp/m/rb"; 
const fresh = process.argv.includes("--fresh");
if (fresh) { rmSync(dir, { recursive: true, force: true }); const c = await Chain.open({ dataDir: dir, blockTimeMs: 0, genesisTimeMs: Date.UTC(2025,0,1) }); for (let i = 0; i < 3000; i += 500) c.withOneFlush(() => { for (let j = 0; j < 500; j++) c.produceBlock(); }); await c.close(); }
const chain = await Chain.open({ dataDir: dir, blockTimeMs: 0 });
let t = performance.now();
for (let h = 1; h <= 2500; h++) chain.blockByHeight(h);
console.log("cold block µs", ((performance.now() - t) / 2500 * 1000).toFixed(1));
t = performance.now();
for (let h = 1; h <= 2500; h++) chain.blockCommit(h);
console.log("commit µs (blocks evicted)", ((performance.now() - t) / 2500 * 1000).toFixed(1));
await chain.close();
