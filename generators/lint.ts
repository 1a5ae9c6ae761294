// `npm run lint:specs [-- --spec <dir>]`: assemble the spec, validate it against the OpenRPC
// meta-schema and run the semantic checks of lint-rules.ts. Exits 1 when anything is wrong.

import { lintCommand, runAsMain } from "./commands.js";

runAsMain(lintCommand, "lint:specs");
