// generated/rpc/methods.ts: the method names, the params/result map, the handler interface
// (a spec'd method without a handler fails to type-check) and the dispatch table.

import type { MethodModel } from "./method-model.js";
import { render } from "./templates.js";

export function emitMethods(models: MethodModel[], banner: string): string {
  const typeImports = models.flatMap((m) => [`${m.pascal}Params`, `${m.pascal}Result`]).sort();
  return render("methods.ts", {
    banner,
    typeImports,
    methods: models.map((m) => ({
      name: m.name,
      pascal: m.pascal,
      summary: m.summary,
      paramNames: m.paramNames,
      requiredParamNames: m.requiredParamNames,
      errorCauses: m.errorCauses,
      usesParamsSchema: m.usesParamsSchema,
      unknownParams: m.unknownParams,
      knownParams: m.knownParams,
      discriminator: m.discriminator ?? null,
      knownParamsByVariant: Object.fromEntries(m.knownParamsByVariant.map((v) => [v.tag, v.names])),
    })),
  });
}
