import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** Type assertions and non-null assertions found in one file. */
export interface CastCount {
  /** `x as T` and `<T>x`, leaving out `as const` (it asserts nothing). */
  readonly casts: number;
  /** `x!`. */
  readonly nonNull: number;
}

/** Counts the assertions in TypeScript source text, by its syntax tree (not by pattern). */
export function countCasts(fileName: string, text: string): CastCount {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let casts = 0;
  let nonNull = 0;
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !ts.isConstTypeReference(node.type)) casts++;
    else if (ts.isNonNullExpression(node)) nonNull++;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { casts, nonNull };
}

/** Every .ts file under `dir` with its counts, keyed by its path relative to `root`. */
export function countCastsUnder(root: string, dir: string): Map<string, CastCount> {
  const counts = new Map<string, CastCount>();
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(".ts")) counts.set(relative(root, child), countCasts(child, readFileSync(child, "utf8")));
    }
  };
  walk(join(root, dir));
  return counts;
}

/** The sum of `counts` over the files whose path starts with `prefix`. */
export function totalUnder(counts: Map<string, CastCount>, prefix = ""): CastCount {
  let casts = 0;
  let nonNull = 0;
  for (const [path, count] of counts) {
    if (!path.startsWith(prefix)) continue;
    casts += count.casts;
    nonNull += count.nonNull;
  }
  return { casts, nonNull };
}
