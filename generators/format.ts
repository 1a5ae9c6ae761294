// Prettier with pinned, explicit options (no config file lookup), so output only changes
// when the prettier version does.

import { format } from "prettier";

export type OutputKind = "typescript" | "json" | "html";

export async function formatOutput(source: string, kind: OutputKind): Promise<string> {
  return format(source, {
    parser: kind,
    printWidth: 110,
    endOfLine: "lf",
  });
}
