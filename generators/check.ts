// Compares generated files with an output directory (`--check`) and writes them.
// The output directory is owned by the generators: files there that no emitter produced are
// orphans, reported by the check and deleted by a write.

import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { GeneratedFiles } from "./generate.js";

export interface CheckReport {
  /** On disk with different content. */
  stale: string[];
  /** Generated but not on disk. */
  missing: string[];
  /** On disk but not generated. */
  orphan: string[];
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(path.join(dir, entry.name), relative)));
    else files.push(relative);
  }
  return files.sort();
}

export async function compareWithDisk(files: GeneratedFiles, outDir: string): Promise<CheckReport> {
  const report: CheckReport = { stale: [], missing: [], orphan: [] };
  for (const [file, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const onDisk = await readFile(path.join(outDir, file), "utf8").catch(() => undefined);
    if (onDisk === undefined) report.missing.push(file);
    else if (onDisk !== content) report.stale.push(file);
  }
  report.orphan = (await listFiles(outDir)).filter(
    (file) => !files.has(file) && path.basename(file) !== ".gitkeep",
  );
  return report;
}

export function isClean(report: CheckReport): boolean {
  return report.stale.length + report.missing.length + report.orphan.length === 0;
}

export function describeReport(report: CheckReport, outLabel: string): string {
  const lines: string[] = [];
  for (const file of report.stale) lines.push(`  stale:   ${outLabel}/${file}`);
  for (const file of report.missing) lines.push(`  missing: ${outLabel}/${file}`);
  for (const file of report.orphan) lines.push(`  orphan:  ${outLabel}/${file}`);
  return lines.join("\n");
}

/** Writes changed and missing files, deletes orphans; returns what it did. */
export async function writeOutputs(files: GeneratedFiles, outDir: string): Promise<CheckReport> {
  const report = await compareWithDisk(files, outDir);
  for (const file of [...report.stale, ...report.missing]) {
    const target = path.join(outDir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, files.get(file)!, "utf8");
  }
  for (const file of report.orphan) await rm(path.join(outDir, file));
  return report;
}
