// Which test suites need a program that Node and npm do not bring (headless Chromium, a Redis
// server, PostgreSQL 15), and which of those this machine lacks. vitest.config.ts leaves out the
// suites whose program is missing and prints one notice at the end naming what to install;
// `.ci/run` sets SHARDKIT_REQUIRE_ALL_SUITES=1, under which a missing program fails the run.
//
// A suite needs a program when it imports (directly, or through other files under test/) the
// support module that starts it: nothing to keep in sync by hand.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export type ExternalProgram = "chromium" | "redis-server" | "postgresql-15";

interface ProgramFacts {
  /** The support module (under test/support/) that starts the program. */
  readonly module: string;
  /** What to install on Debian (what `.ci/run` installs). */
  readonly install: string;
  readonly present: () => boolean;
}

const succeeds = (command: string, args: string[]) => {
  const probe = spawnSync(command, args, { stdio: "ignore" });
  return probe.error === undefined && probe.status === 0;
};

export const EXTERNAL_PROGRAMS: Record<ExternalProgram, ProgramFacts> = {
  chromium: {
    module: "chromium.ts",
    install: "chromium (or set CHROMIUM_PATH)",
    present: () => existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"),
  },
  "redis-server": {
    module: "redisServer.ts",
    install: "redis-server (or set SHARDKIT_REDIS_SERVER)",
    present: () => succeeds(process.env.SHARDKIT_REDIS_SERVER ?? "redis-server", ["--version"]),
  },
  "postgresql-15": {
    module: "postgresServer.ts",
    install: "postgresql-15 (or set SHARDKIT_PG_BIN to its bin directory)",
    present: () => {
      const bin = process.env.SHARDKIT_PG_BIN ?? "/usr/lib/postgresql/15/bin";
      return existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"));
    },
  },
};

const PROGRAMS = Object.keys(EXTERNAL_PROGRAMS) as ExternalProgram[];

/** The programs this machine lacks. */
export function missingPrograms(): ExternalProgram[] {
  return PROGRAMS.filter((program) => !EXTERNAL_PROGRAMS[program].present());
}

/** Relative imports (static, dynamic, re-exports) of a source file. */
function relativeImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) found.push(match[1]!);
  return found;
}

/**
 * The programs a test file needs, following its relative imports through files under `testRoot`
 * (src/ never starts an external program for a test).
 */
export function programsNeededBy(file: string, testRoot: string, seen = new Set<string>()): Set<ExternalProgram> {
  const needs = new Set<ExternalProgram>();
  const path = resolve(file);
  if (seen.has(path)) return needs;
  seen.add(path);
  const supportDir = join(resolve(testRoot), "support");
  for (const program of PROGRAMS) if (path === join(supportDir, EXTERNAL_PROGRAMS[program].module)) needs.add(program);
  let source: string;
  try {
    source = readFileSync(path, "utf8");
  } catch {
    return needs;
  }
  for (const specifier of relativeImports(source)) {
    const target = resolve(dirname(path), specifier.replace(/\.js$/, ".ts"));
    if (relative(resolve(testRoot), target).startsWith("..")) continue;
    for (const program of programsNeededBy(target, testRoot, seen)) needs.add(program);
  }
  return needs;
}

export interface SkippedSuites {
  readonly missing: readonly ExternalProgram[];
  /** Test files (relative to the repository) left out, with the missing programs each needs. */
  readonly suites: ReadonlyMap<string, readonly ExternalProgram[]>;
}

/** The suites among `files` that cannot run here, given the missing programs. */
export function skippedSuites(files: readonly string[], repoRoot: string, missing: readonly ExternalProgram[] = missingPrograms()): SkippedSuites {
  const suites = new Map<string, ExternalProgram[]>();
  if (missing.length === 0) return { missing, suites };
  const testRoot = join(repoRoot, "test");
  for (const file of files) {
    const lacking = [...programsNeededBy(join(repoRoot, file), testRoot)].filter((program) => missing.includes(program));
    if (lacking.length > 0) suites.set(file, lacking);
  }
  return { missing, suites };
}

/** The one notice printed at the end of a run that left suites out. */
export function skippedNotice(skipped: SkippedSuites): string {
  const lines = [
    `NOTE: ${skipped.suites.size} test file(s) were NOT run: this machine lacks ${skipped.missing.join(", ")}.`,
    ...skipped.missing.map((program) => {
      const files = [...skipped.suites].filter(([, needs]) => needs.includes(program)).map(([file]) => file);
      return `  ${program}: apt-get install -y --no-install-recommends ${EXTERNAL_PROGRAMS[program].install}; needed by ${files.length} file(s): ${files.join(", ")}`;
    }),
    "  CI (.ci/run) installs all of them and fails if any suite is left out (SHARDKIT_REQUIRE_ALL_SUITES=1).",
  ];
  return `${lines.join("\n")}\n`;
}
