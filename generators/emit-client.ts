// generated/rpc/client.ts: one typed async function per method over a caller-supplied
// transport. Imports only generated types, so it is safe for browsers and SDK packages.

import type { MethodModel } from "./method-model.js";
import { render } from "./templates.js";

export function emitClient(models: MethodModel[], banner: string): string {
  const typeImports = models
    .flatMap((m) => [...(m.noParams ? [] : [`${m.pascal}Params`]), `${m.pascal}Result`])
    .sort();
  const camels = new Set<string>();
  for (const m of models) {
    if (camels.has(m.camel)) throw new Error(`two methods map to the client function ${m.camel}`);
    camels.add(m.camel);
  }
  return render("client.ts", {
    banner,
    typeImports,
    methods: models.map((m) => ({
      name: m.name,
      camel: m.camel,
      pascal: m.pascal,
      doc: [m.summary, "", `Calls \`${m.name}\`.`].join("\n"),
      noParams: m.noParams,
      paramsOptional: m.paramsOptional && !m.noParams,
    })),
  });
}
