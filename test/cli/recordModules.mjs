// Preloaded with `node --import` by lazyCommands.test.ts: appends every module URL the process
// resolves to the file named by SHARDKIT_MODULE_LOG (module hooks run on their own thread).
import { register } from "node:module";

const hooks = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.SHARDKIT_MODULE_LOG, resolved.url + "\\n");
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
