// rpc/client.ts: one typed async function per method over a caller-supplied transport, the
// per-variant result maps (x-result-by-variant) and the error causes per method. Imports only
// generated types, so it is safe for browsers and SDK packages (the client package gets the
// same file).

import type { MethodModel } from "./method-model.js";
import { pascalCase } from "./names.js";
import { render } from "./templates.js";

export function emitClient(models: MethodModel[], banner: string): string {
  const types = new Set<string>();
  const camels = new Set<string>();
  for (const m of models) {
    if (camels.has(m.camel)) throw new Error(`two methods map to the client function ${m.camel}`);
    camels.add(m.camel);
    if (!m.noParams) types.add(`${m.pascal}Params`);
    types.add(`${m.pascal}Result`);
  }
  const narrowed = models
    .filter((m) => m.resultByVariant.length > 0)
    .map((m) => {
      const mapName = `${m.pascal}ResultBy${pascalCase(m.discriminator!)}`;
      const entries = m.resultByVariant.map(({ tag, typeNames }) => {
        for (const name of typeNames) types.add(name);
        return { tag, type: typeNames.join(" | ") };
      });
      return { name: m.name, discriminator: m.discriminator!, mapName, entries, model: m };
    });
  const methods = models.map((m) => {
    const narrow = narrowed.find((n) => n.model === m);
    const overloads = (narrow?.entries ?? []).map(({ tag }) => {
      const variant = m.variants.find((v) => v.tag === tag)!;
      types.add(variant.typeName);
      return {
        doc: [m.summary, "", `Calls \`${m.name}\` with \`${m.discriminator}: "${tag}"\`.`].join("\n"),
        paramsType: variant.typeName,
        resultType: `${narrow!.mapName}[${JSON.stringify(tag)}]`,
      };
    });
    return {
      name: m.name,
      camel: m.camel,
      pascal: m.pascal,
      doc: [m.summary, "", `Calls \`${m.name}\`.`].join("\n"),
      noParams: m.noParams,
      paramsOptional: m.paramsOptional && !m.noParams,
      overloads,
      causes: m.errorCauses.length === 0 ? "never" : m.errorCauses.map((c) => JSON.stringify(c)).join(" | "),
    };
  });
  return render("client.ts", {
    banner,
    typeImports: [...types].sort(),
    narrowed: narrowed.map(({ name, discriminator, mapName, entries }) => ({ name, discriminator, mapName, entries })),
    methods,
  });
}
