// `npm run build` runs this after tsc: bundles the `shardkit` command from tsc's output into
// dist/cli/ (main.js, the worker entries, shared chunks). Node resolves, reads and compiles
// ~370 files one by one to start the unbundled CLI (a third of a sandbox's start-up CPU); the
// bundle is a few files. Lazy `import()`s stay lazy (split chunks); npm packages stay external
// (lmdb is native). Worker entries sit next to the chunks under their own names, where
// startWorker looks for them (a file next to its caller).
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const compiled = (path) => join(root, "dist", "src", path);
const outdir = join(root, "dist", "cli");

// The contract-preparation code's hash, fixed into the bundle (see src/chain/vm/wasm/preparationFingerprint.ts: the same hash).
const preparationDir = compiled("chain/vm/wasm");
const fingerprint = createHash("sha256");
for (const name of readdirSync(preparationDir).sort()) {
  if (!/\.(js|ts)$/.test(name) || name.endsWith(".d.ts")) continue;
  fingerprint.update(name).update("\0").update(readFileSync(join(preparationDir, name))).update("\0");
}

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [compiled("cli/main.js"), compiled("chain/genesis/entrySortWorker.js"), compiled("chain/store/bucketOrderWorker.js"), compiled("chain/fork/blockingRpcWorker.js"), compiled("indexer/history/historyWorker.js")],
  outdir,
  entryNames: "[name]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // Maps for a checkout (to tsc's output, which maps on to src/); the package ships none.
  sourcemap: "linked",
  sourcesContent: false,
  define: { SHARDKIT_PREPARATION_FINGERPRINT: JSON.stringify(fingerprint.digest("hex")) },
  logLevel: "warning",
});
