import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts the worker module `name` (a file next to the module at `siblingUrl`, without
 * extension). Built code runs `name.js`; source run through tsx or vitest (the sibling is a
 * `.ts` file) runs `name.ts`, with tsx registered in the worker first: a worker does not
 * inherit its parent's loader hooks, and node cannot load `.ts` on its own.
 */
export function startWorker(siblingUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const fromSource = siblingUrl.endsWith(".ts");
  const entry = new URL(`./${name}${fromSource ? ".ts" : ".js"}`, siblingUrl);
  if (!fromSource) return new Worker(entry, options);
  // Resolved here: an eval'd worker would look for tsx from the current directory.
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
