// `npm run build` runs this after tsc: the Ajv validators are generated as minified JavaScript
// with a .d.ts (generators/emit-compiled-validators.ts), which tsc neither compiles nor copies,
// so their .js and .d.ts go to dist/ here, next to the validators.js that imports them.
import { copyFileSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

for (const area of readdirSync(join(root, "generated"), { withFileTypes: true })) {
  if (!area.isDirectory()) continue;
  for (const file of readdirSync(join(root, "generated", area.name))) {
    if (!/\.compiled\.(js|d\.ts)$/.test(file)) continue;
    copyFileSync(join(root, "generated", area.name, file), join(root, "dist", "generated", area.name, file));
    // A build from before the validators were JavaScript left tsc's source map of them.
    if (file.endsWith(".js")) rmSync(join(root, "dist", "generated", area.name, `${file}.map`), { force: true });
  }
}
