import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/** One flag of a command: a string value (optionally repeatable) or a boolean switch. */
export interface FlagSpec {
  type: "string" | "boolean";
  multiple?: boolean;
  /** One-letter alias, e.g. "h" for -h. */
  short?: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

export type FlagValues<S extends FlagSpecs> = {
  [K in keyof S]?: S[K]["type"] extends "boolean" ? boolean : S[K]["multiple"] extends true ? string[] : string;
};

/** A command-line mistake: the message is meant for the user as it is. */
export class UsageError extends ShardkitError<"USAGE"> {
  override readonly name = "UsageError";
  constructor(
    message: string,
    /** The command whose --help explains the fix ("serve", "keys", ...), if any. */
    readonly command?: string,
  ) {
    super("USAGE", message);
  }
}

/**
 * Parses `--name value`, `--name=value` and boolean `--name` flags. Unlike node:util's parseArgs,
 * a value that starts with "-" (a negative number, say) is taken as the value, so that the range
 * check can say what is wrong with it; a flag followed by another flag (or nothing) lacks a value.
 */
export function parseFlags<S extends FlagSpecs>(
  command: string,
  args: readonly string[],
  specs: S,
): { values: FlagValues<S>; positionals: string[] } {
  const values: Record<string, string | string[] | boolean> = {};
  const positionals: string[] = [];
  const byShort = new Map(Object.entries(specs).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === undefined) break;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const written = eq < 0 ? arg : arg.slice(0, eq);
    const name = written.startsWith("--") ? written.slice(2) : byShort.get(written.slice(1));
    const spec = name === undefined ? undefined : specs[name];
    if (name === undefined || spec === undefined) {
      const guess = closest(written.replace(/^-+/, ""), Object.keys(specs));
      throw new UsageError(`unknown option ${written} for ${command}${guess ? ` (did you mean --${guess}?)` : ""}`, command);
    }
    if (spec.type === "boolean") {
      if (eq >= 0) throw new UsageError(`--${name} is a switch and takes no value (got ${JSON.stringify(arg)})`, command);
      values[name] = true;
      continue;
    }
    let value: string;
    if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith("-") && !/^-\d/.test(next))) throw new UsageError(`--${name} needs a value`, command);
      value = next;
      i++;
    }
    if (spec.multiple) {
      const given = values[name];
      values[name] = Array.isArray(given) ? [...given, value] : [value];
    } else {
      if (values[name] !== undefined) throw new UsageError(`--${name} is given more than once`, command);
      values[name] = value;
    }
  }
  return { values: values as FlagValues<S>, positionals };
}

/** The known name nearest to a mistyped one (edit distance <= 2), for "did you mean". */
function closest(word: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  // One row of the distance table at a time: previous[j] is the distance of a[0, i - 1) to b[0, j).
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const [up, left, diagonal] = [previous[j] ?? Infinity, current[j - 1] ?? Infinity, previous[j - 1] ?? Infinity];
      current[j] = Math.min(up + 1, left + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? Infinity;
}
