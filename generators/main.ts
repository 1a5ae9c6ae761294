// `npm run generate`            regenerate generated/ from specs/
// `npm run generate -- --check` regenerate in memory; exit 1 listing stale/missing/orphan files
// Options: --spec <dir> (default specs/), --out <dir> (default generated/).

import { generateCommand, runAsMain } from "./commands.js";

runAsMain(generateCommand, "generate");
