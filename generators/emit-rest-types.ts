// generated/rest/types.ts: openapi-typescript's types of the REST document (`paths`,
// `components`, `operations`), the types openapi-fetch clients are built on.

import openapiTS, { astToString } from "openapi-typescript";
import type { OpenApiDocument } from "./openapi-model.js";

export async function emitRestTypes(doc: OpenApiDocument, banner: string): Promise<string> {
  // A deep copy: openapi-typescript annotates the object it is given.
  const ast = await openapiTS(structuredClone(doc) as never, { silent: true, alphabetize: true });
  return `${banner}\n// openapi-typescript output for the REST spec.\n\n${astToString(ast)}`;
}
